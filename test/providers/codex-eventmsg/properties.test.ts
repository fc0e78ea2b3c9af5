import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import type { MapperDefinition } from "../../../src/kit/mapper.js";
import {
  codexEventMsgDefinition,
  codexRolloutDefinition,
} from "../../../src/providers/codex-eventmsg/definition.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { checkMapperRun, transcriptLinesArbitrary } from "../../support/mapper-fuzz.js";
import { EVENTMSG_FIXTURES, fixtureNames, ROLLOUT_FIXTURES, readLines, replay } from "./replay.js";

function allLines(dir: string): string[] {
  return fixtureNames(dir).flatMap((name) => readLines(join(dir, `${name}.jsonl`)));
}

const SUITES: [MapperDefinition, string][] = [
  [codexRolloutDefinition, ROLLOUT_FIXTURES],
  [codexEventMsgDefinition, EVENTMSG_FIXTURES],
];

for (const [definition, dir] of SUITES) {
  describe(`${definition.source} properties`, () => {
    const lines = allLines(dir);

    it("mutated, truncated and arbitrary records: never throws, every event valid, deterministic", () => {
      fc.assert(
        fc.property(transcriptLinesArbitrary(lines), (sample) => {
          const problem = checkMapperRun(definition, sample);
          if (problem !== undefined) throw new Error(problem.problem);
        }),
        { numRuns: 150, seed: 4 },
      );
    });

    it("arbitrary JSON payloads inside the right envelope: never throws, every event valid", () => {
      const types = [...new Set(lines.map((line) => typeOf(JSON.parse(line))))];
      const record = fc
        .tuple(fc.constantFrom(...types), fc.dictionary(fc.string(), fc.jsonValue()))
        .map(([type, fields]) => envelope(definition, type, fields));
      fc.assert(
        fc.property(fc.array(record, { minLength: 1, maxLength: 20 }), (records) => {
          const problem = checkMapperRun(
            definition,
            records.map((r) => JSON.stringify(r)),
          );
          if (problem !== undefined) throw new Error(problem.problem);
        }),
        { numRuns: 150, seed: 7 },
      );
    });

    it("damaged files (dropped/retyped fields, truncation, garbage, duplicates, swaps): valid events only", () => {
      for (const name of fixtureNames(dir)) {
        const original = readLines(join(dir, `${name}.jsonl`));
        for (let seed = 1; seed <= 12; seed++) {
          const events = replay(definition, damage(original, seed));
          for (const event of events) expect(RuntimeEventSchema.safeParse(event).success).toBe(true);
          for (const [index, event] of events.entries()) expect(event.sequence).toBe(index + 1);
          // Whatever the damage, the session returns to ready after each turn and waits only on open requests.
          const stateViolations = verifyEvents(events).filter(
            (v) => v.rule === "session-state" || v.rule === "thread-state",
          );
          expect(stateViolations, `${name} seed ${seed}`).toEqual([]);
        }
      }
    });
  });
}

function typeOf(record: { type?: string; msg?: { params?: { msg?: { type?: string } } } }): string {
  return record.msg?.params?.msg?.type ?? record.type ?? "";
}

function envelope(definition: MapperDefinition, type: string, fields: Record<string, unknown>): unknown {
  if (definition === codexRolloutDefinition)
    return { timestamp: "2026-01-01T00:00:00Z", type, payload: fields };
  return {
    t: "2026-01-01T00:00:00Z",
    dir: "in",
    msg: { method: `codex/event/${type}`, params: { msg: { ...fields, type } } },
  };
}

/** A deterministic damage of a transcript, in the spirit of the shared damage tool. */
function damage(lines: readonly string[], seed: number): string[] {
  let state = seed * 2654435761;
  const next = (n: number) => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return state % n;
  };
  const out: string[] = [];
  for (const line of lines) {
    const roll = next(10);
    if (roll === 0) continue;
    if (roll === 1) out.push(line.slice(0, next(line.length + 1)));
    else if (roll === 2) out.push("\u0000garbage{");
    else if (roll === 3) out.push(line, line);
    else if (roll === 4) out.push(JSON.stringify(retype(JSON.parse(line), next)));
    else out.push(line);
    if (out.length > 1 && next(8) === 0) {
      const a = out.length - 1;
      [out[a], out[a - 1]] = [out[a - 1] as string, out[a] as string];
    }
  }
  return out;
}

function retype(value: unknown, next: (n: number) => number): unknown {
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 0) return value;
  const key = keys[next(keys.length)] as string;
  const target = value as Record<string, unknown>;
  const child = target[key];
  if (child !== null && typeof child === "object" && next(2) === 0) target[key] = retype(child, next);
  else if (next(2) === 0) delete target[key];
  else target[key] = [null, 42, "x", [], {}][next(5)];
  return value;
}
