import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import type { TranscriptEntry } from "../../../src/kit/transcript.js";
import { acpDefinition, cursorAcpDefinition } from "../../../src/providers/acp/definition.js";
import { acpFixtureNames, readFixtureLines } from "./fixture-replay.js";

const fixtureMessages: { dir: "in" | "out"; msg: unknown }[] = acpFixtureNames().flatMap((name) =>
  readFixtureLines(name)
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { dir: "in" | "out"; msg: unknown }),
);

/** Replaces, drops or retypes one field somewhere in a record. */
function mutate(value: unknown, path: number[], replacement: unknown): unknown {
  if (typeof value !== "object" || value === null) return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0 || path.length === 0) return replacement;
  const [head, ...rest] = path as [number, ...number[]];
  const key = keys[head % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...value };
  if (rest.length === 0 && replacement === undefined) delete copy[key];
  else copy[key] = mutate((value as Record<string, unknown>)[key], rest, replacement);
  return copy;
}

function checkAll(entries: TranscriptEntry[], cursor: boolean): void {
  const mapper = (cursor ? cursorAcpDefinition : acpDefinition).create({ sessionId: "prop" });
  let sequence = 0;
  for (const entry of entries) {
    const events = mapper.map(entry);
    if (entry.kind === "message" && entry.dir === "in") expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      RuntimeEventSchema.parse(event);
      expect(event.sequence).toBe(++sequence);
    }
  }
}

describe("ACP mapper properties", () => {
  it("any JSON value, either direction: never throws, every event schema-valid, inbound never silent", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.jsonValue()), { maxLength: 30 }),
        fc.boolean(),
        (records, cursor) => {
          checkAll(
            records.map(([inbound, msg]) => ({ kind: "message", dir: inbound ? "in" : "out", msg })),
            cursor,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("JSON-RPC-shaped records with arbitrary methods, ids and params", () => {
    const methods = fc.constantFrom(
      "session/update",
      "session/prompt",
      "session/request_permission",
      "initialize",
      "session/new",
      "cursor/task",
      "fs/read_text_file",
      "x/y",
    );
    const record = fc.record({
      jsonrpc: fc.constant("2.0"),
      id: fc.option(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.string({ maxLength: 3 })), {
        nil: undefined,
      }),
      method: fc.option(methods, { nil: undefined }),
      params: fc.option(fc.jsonValue(), { nil: undefined }),
      result: fc.option(fc.jsonValue(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), record), { maxLength: 40 }), (records) => {
        checkAll(
          records.map(([inbound, msg]) => ({ kind: "message", dir: inbound ? "in" : "out", msg })),
          false,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("mutated real records (dropped / retyped fields) still map to valid events", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat({ max: fixtureMessages.length - 1 }),
            fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 5 }),
            fc.oneof(fc.constant(undefined), fc.jsonValue()),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        fc.boolean(),
        (picks, cursor) => {
          const entries: TranscriptEntry[] = picks.map(([index, path, replacement]) => {
            const record = fixtureMessages[index] as { dir: "in" | "out"; msg: unknown };
            return { kind: "message", dir: record.dir, msg: mutate(record.msg, path, replacement) };
          });
          checkAll(entries, cursor);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("truncated and garbage lines become warnings", () => {
    const mapper = acpDefinition.create({ sessionId: "garbage" });
    const events = mapper.map({ kind: "malformed", text: '{"jsonrpc":"2.0","meth', reason: "truncated" });
    expect(events.map((event) => event.type)).toEqual(["runtime.warning"]);
  });
});
