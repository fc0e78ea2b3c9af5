import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { CodexSdkMapper } from "../../../src/providers/codex-sdk/mapper.js";
import { verifyEvents } from "../../../src/verify/index.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/codex-sdk/", import.meta.url));
/** Every record of every fixture transcript, in order, with its direction. */
const RECORDS = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl"))
  .sort()
  .flatMap((name) =>
    readFileSync(join(FIXTURES, name), "utf8")
      .split("\n")
      .map((line) => parseTranscriptLine(line))
      .filter((entry) => entry?.kind === "message"),
  )
  .map((entry) => ({ dir: entry.dir, msg: entry.msg }));

function mapAll(records: ReadonlyArray<{ dir: "in" | "out"; msg: unknown }>): RuntimeEvent[][] {
  const mapper = new CodexSdkMapper({ sessionId: "ses_property" });
  return records.map((record) => mapper.map({ kind: "message", ...record }));
}

function expectWellFormed(perRecord: RuntimeEvent[][]): void {
  const all = perRecord.flat();
  all.forEach((event, index) => {
    expect(() => RuntimeEventSchema.parse(event)).not.toThrow();
    expect(event.sequence).toBe(index + 1);
  });
  expect(verifyEvents(all)).toEqual([]);
}

/** Replaces or drops a value somewhere inside a record. */
function mutate(value: unknown, path: readonly number[], replacement: unknown, drop: boolean): unknown {
  if (path.length === 0 || typeof value !== "object" || value === null) return replacement;
  const [step = 0, ...rest] = path;
  if (Array.isArray(value)) {
    if (value.length === 0) return value;
    const index = step % value.length;
    const copy = [...value];
    if (drop && rest.length === 0) copy.splice(index, 1);
    else copy[index] = mutate(copy[index], rest, replacement, drop);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return value;
  const key = keys[step % keys.length] as string;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (drop && rest.length === 0) delete copy[key];
  else copy[key] = mutate(copy[key], rest, replacement, drop);
  return copy;
}

describe("codex-sdk mapper properties", () => {
  it("any JSON value in either direction: no throw, valid events, >= 1 event per inbound record", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("in", "out") as fc.Arbitrary<"in" | "out">, fc.jsonValue()), {
          maxLength: 20,
        }),
        (records) => {
          const perRecord = mapAll(records.map(([dir, msg]) => ({ dir, msg })));
          expectWellFormed(perRecord);
          records.forEach(([dir], index) => {
            if (dir === "in") expect(perRecord[index]?.length).toBeGreaterThan(0);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("thread events with arbitrary fields: no throw, valid events, lifecycle intact", () => {
    const type = fc.constantFrom(
      "thread.started",
      "turn.started",
      "turn.completed",
      "turn.failed",
      "item.started",
      "item.updated",
      "item.completed",
      "error",
    );
    const item = fc.record(
      {
        id: fc.constantFrom("item_0", "item_1", 3, null),
        type: fc.constantFrom(
          "agent_message",
          "reasoning",
          "command_execution",
          "todo_list",
          "file_change",
          "mcp_tool_call",
          "web_search",
          "error",
          "nope",
        ),
        text: fc.oneof(fc.constantFrom("a", "ab", "abc", "b"), fc.jsonValue()),
        aggregated_output: fc.constantFrom("", "x", "xy", "z"),
        command: fc.oneof(
          fc.constantFrom("/bin/bash -lc 'ls -a'", "zsh -lc ls", "sh -c echo hi", "bash -lc", ""),
          fc.jsonValue(),
        ),
        exit_code: fc.oneof(fc.integer(), fc.double(), fc.constant(null)),
        changes: fc.oneof(
          fc.array(
            fc.record(
              {
                path: fc.oneof(fc.string(), fc.jsonValue()),
                kind: fc.constantFrom("add", "update", "move", 3),
              },
              { requiredKeys: [] },
            ),
          ),
          fc.jsonValue(),
        ),
        server: fc.oneof(fc.constantFrom("docs"), fc.jsonValue()),
        tool: fc.oneof(fc.constantFrom("lookup"), fc.jsonValue()),
        arguments: fc.jsonValue(),
        result: fc.jsonValue(),
        error: fc.oneof(fc.record({ message: fc.jsonValue() }), fc.jsonValue()),
        query: fc.jsonValue(),
        message: fc.jsonValue(),
        items: fc.jsonValue(),
        status: fc.constantFrom("in_progress", "completed", "failed", 7),
      },
      { requiredKeys: [] },
    );
    const record = fc.record(
      {
        type,
        thread_id: fc.constantFrom("t1", "t2", ""),
        item,
        usage: fc.jsonValue(),
        error: fc.jsonValue(),
      },
      { requiredKeys: ["type"] },
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), (records) => {
        expectWellFormed(mapAll(records.map((msg) => ({ dir: "in" as const, msg }))));
      }),
      { numRuns: 400 },
    );
  });

  it("mutated real records (a field retyped or dropped, records dropped or repeated): no throw, lifecycle intact", () => {
    const mutation = fc.record({
      at: fc.nat(RECORDS.length - 1),
      path: fc.array(fc.nat(10), { minLength: 1, maxLength: 4 }),
      replacement: fc.jsonValue(),
      drop: fc.boolean(),
      repeat: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 8 }), (mutations) => {
        const records: Array<{ dir: "in" | "out"; msg: unknown }> = RECORDS.map((record) => ({ ...record }));
        for (const m of mutations) {
          const target = records[m.at];
          if (target === undefined) continue;
          const damaged = { dir: target.dir, msg: mutate(target.msg, m.path, m.replacement, m.drop) };
          if (m.repeat) records.splice(m.at, 0, damaged);
          else records[m.at] = damaged;
        }
        expectWellFormed(mapAll(records));
      }),
      { numRuns: 200 },
    );
  });

  it("a turn.started before any thread still has its turnId; its turn.completed closes it", () => {
    const perRecord = mapAll([
      { dir: "in", msg: { type: "turn.started" } },
      { dir: "in", msg: { type: "turn.completed" } },
    ]);
    expectWellFormed(perRecord);
    const started = perRecord.flat().find((e) => e.type === "turn.started");
    expect(started?.turnId).toMatch(/^turn_/);
    expect(started?.threadId).toBeUndefined();
    const completed = perRecord.flat().find((e) => e.type === "turn.completed");
    expect(completed?.turnId).toBe(started?.turnId);
  });

  it.each(["item.started", "item.updated", "item.completed"])(
    "%s without an item id (or item) is a runtime.warning, never an item event without itemId",
    (type) => {
      for (const item of [{ type: "agent_message", text: "x" }, { id: "", type: "reasoning" }, undefined]) {
        const perRecord = mapAll([
          { dir: "in", msg: { type: "thread.started", thread_id: "t1" } },
          { dir: "in", msg: { type: "turn.started" } },
          { dir: "in", msg: item === undefined ? { type } : { type, item } },
        ]);
        expectWellFormed(perRecord);
        expect(perRecord[2]?.map((e) => e.type)).toEqual(["runtime.warning"]);
      }
    },
  );

  it("truncated and garbage lines become warnings", () => {
    const mapper = new CodexSdkMapper({ sessionId: "ses_property" });
    fc.assert(
      fc.property(fc.nat(RECORDS.length - 1), fc.nat(200), (at, cut) => {
        const line = JSON.stringify(RECORDS[at]?.msg).slice(0, cut);
        const entry = parseTranscriptLine(line);
        if (entry === undefined) return;
        const events = mapper.map(entry);
        for (const event of events) RuntimeEventSchema.parse(event);
        if (entry.kind === "malformed") expect(events.map((e) => e.type)).toEqual(["runtime.warning"]);
      }),
      { numRuns: 300 },
    );
  });
});
