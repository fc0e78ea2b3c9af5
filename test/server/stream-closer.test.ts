import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { StreamCloser } from "../../src/server/stream-closer.js";
import { formatViolation, verifyEvents } from "../../src/verify/index.js";

/**
 * A crash can stop the stored stream after any event. For real recorded streams cut after every one of their
 * events, the closing events make the stream pass `verify`, numbered on without a gap.
 */

const FIXTURES = [
  "codex/shell.expected.jsonl",
  "codex/multi-turn.expected.jsonl",
  "codex/edit.expected.jsonl",
  "claude/shell.expected.jsonl",
  "claude/multi-turn.expected.jsonl",
  "claude/question.expected.jsonl",
];

const read = (name: string): RuntimeEvent[] =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RuntimeEvent);

describe("StreamCloser", () => {
  for (const name of FIXTURES) {
    it(`${name}: every cut closes into a stream that passes verify`, () => {
      const events = read(name);
      expect(verifyEvents(events).map(formatViolation)).toEqual([]);
      const exitedAt = events.findIndex((e) => e.type === "session.exited");
      const cuts = exitedAt < 0 ? events.length : exitedAt;
      let closedSome = 0;
      for (let cut = 1; cut <= cuts; cut++) {
        const stored = events.slice(0, cut);
        const closer = new StreamCloser();
        for (const event of stored) closer.observe(event);
        expect(closer.open).toBe(true);
        const closing = closer.close("crashed", "2026-12-01T12:00:00.000Z");
        const whole = [...stored, ...closing];
        expect([cut, verifyEvents(whole).map(formatViolation)]).toEqual([cut, []]);
        expect(whole.map((e) => e.sequence)).toEqual(whole.map((_, i) => i + 1));
        expect(closing.at(-1)).toMatchObject({ type: "session.exited", payload: { exitKind: "error" } });
        closedSome++;
      }
      expect(closedSome).toBeGreaterThan(10);
    });
  }

  it("a closed stream gets nothing more; a stopped and resumed one closes its last run only", () => {
    const events = read("codex/shell.expected.jsonl");
    const closer = new StreamCloser();
    for (const event of events) closer.observe(event);
    const closing = closer.close("crashed", "2026-12-01T12:00:00.000Z");
    const done = new StreamCloser();
    for (const event of [...events, ...closing]) done.observe(event);
    expect(done.open).toBe(false);
    expect(done.close("again", "2026-12-01T12:00:01.000Z")).toEqual([]);
    expect(new StreamCloser().close("empty", "2026-12-01T12:00:01.000Z")).toEqual([]);
  });
});
