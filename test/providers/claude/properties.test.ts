import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import type { TranscriptEntry } from "../../../src/kit/transcript.js";
import { fixtureEntries, inboundMessages, readEntries, replay } from "./test-helpers.js";

const realMessages = ["shell", "subagent", "question", "reasoning", "plan", "error-500"].flatMap((name) =>
  fixtureEntries(name).filter((entry) => entry.kind === "message"),
);
const realInbound = inboundMessages(realMessages);

function check(entries: TranscriptEntry[]): void {
  const events = replay(entries, "prop");
  events.forEach((event, index) => {
    RuntimeEventSchema.parse(event);
    expect(event.sequence).toBe(index + 1);
  });
}

/** Replaces, deletes or retypes one field somewhere in a record (depth ≤ 3). */
function mutate(value: unknown, path: number[], replacement: unknown, remove: boolean): unknown {
  if (typeof value !== "object" || value === null || path.length === 0) return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[(path[0] ?? 0) % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...value };
  if (remove && path.length === 1) delete copy[key];
  else copy[key] = mutate(copy[key], path.slice(1), replacement, remove);
  return copy;
}

describe("claude-sdk mapper properties", () => {
  it("never throws on arbitrary JSON records, in or out", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.jsonValue()), { maxLength: 20 }), (records) => {
        check(records.map(([out, msg]) => ({ kind: "message", dir: out ? "out" : "in", msg })));
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on records with the real types but arbitrary fields", () => {
    const typed = fc.record({
      type: fc.constantFrom(
        "assistant",
        "user",
        "stream_event",
        "result",
        "system",
        "permission_request",
        "tool_progress",
      ),
      subtype: fc.option(
        fc.constantFrom("init", "success", "task_started", "permission_denied", "status", "api_retry"),
      ),
      message: fc.jsonValue(),
      event: fc.jsonValue(),
      parent_tool_use_id: fc.option(fc.string()),
      requestKey: fc.option(fc.string()),
      toolName: fc.option(fc.constantFrom("Bash", "AskUserQuestion", "Agent", "TodoWrite")),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), typed), { maxLength: 25 }), (records) => {
        check(records.map(([out, msg]) => ({ kind: "message", dir: out ? "out" : "in", msg })));
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on real records with one field replaced, deleted, reordered or duplicated", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            index: fc.nat(),
            path: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
            replacement: fc.jsonValue(),
            remove: fc.boolean(),
          }),
          { maxLength: 6 },
        ),
        fc.nat(),
        (mutations, shift) => {
          const records = realMessages.map((entry) => ({ ...entry }));
          for (const m of mutations) {
            const target = records[m.index % records.length];
            if (target?.kind === "message") target.msg = mutate(target.msg, m.path, m.replacement, m.remove);
          }
          const rotated = [
            ...records.slice(shift % records.length),
            ...records.slice(0, shift % records.length),
          ];
          check([...rotated, ...rotated.slice(0, 3)]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("never throws on truncated lines", () => {
    const lines = realInbound
      .slice(0, 40)
      .map((msg) => JSON.stringify({ t: "2026-01-01T00:00:00.000Z", dir: "in", msg }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 10 }), (cuts) => {
        const damaged = [...lines];
        for (const [line, at] of cuts) {
          const i = line % damaged.length;
          damaged[i] = (damaged[i] ?? "").slice(0, at % ((damaged[i] ?? "").length + 1));
        }
        check(readEntries(damaged.join("\n")));
      }),
      { numRuns: 150 },
    );
  });
});
