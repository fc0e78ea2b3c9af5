import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { CODEX_ITEM_TYPES } from "../../../src/providers/codex/app-server-items.js";
import { CodexAppServerMapper } from "../../../src/providers/codex/app-server-mapper.js";
import { CODEX_NOTIFICATIONS } from "../../../src/providers/codex/app-server-notifications.js";
import { CODEX_SERVER_REQUESTS } from "../../../src/providers/codex/app-server-requests.js";

const FIXTURE = fileURLToPath(new URL("../../fixtures/codex/shell.jsonl", import.meta.url));
const records = readFileSync(FIXTURE, "utf8")
  .split("\n")
  .filter((l) => l.trim().length > 0)
  .map((l) => JSON.parse(l) as { dir: "in" | "out"; msg: unknown });

const METHODS = [...Object.keys(CODEX_NOTIFICATIONS), ...Object.keys(CODEX_SERVER_REQUESTS), "thread/start"];

/** Every event schema-valid; the mapper never throws. */
function mapAll(entries: Array<{ dir: "in" | "out"; msg: unknown }>): void {
  const mapper = new CodexAppServerMapper({ sessionId: "prop" });
  for (const entry of entries) {
    for (const event of mapper.map({ kind: "message", ...entry })) RuntimeEventSchema.parse(event);
  }
}

/** Replaces a random path of a JSON value with another value. */
function mutate(value: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[(path[0] as number) % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...value };
  copy[key] = mutate((value as Record<string, unknown>)[key], path.slice(1), replacement);
  return copy;
}

describe("codex app-server mapper properties", () => {
  it("any JSON in either direction: no throw, every event valid", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dir: fc.constantFrom("in" as const, "out" as const), msg: fc.jsonValue() })),
        (entries) => {
          mapAll(entries);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("known methods with arbitrary params and ids: no throw, every event valid", () => {
    const message = fc.record({
      dir: fc.constantFrom("in" as const, "out" as const),
      msg: fc.record(
        {
          method: fc.constantFrom(...METHODS),
          id: fc.oneof(fc.nat(5), fc.string()),
          params: fc.jsonValue(),
          result: fc.jsonValue(),
        },
        { requiredKeys: ["method"] },
      ),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 40 }), (entries) => mapAll(entries)),
      { numRuns: 300 },
    );
  });

  it("ThreadItems of every type with arbitrary field values: item details always schema-valid", () => {
    const anyValue = fc.oneof(fc.jsonValue(), fc.string(), fc.constant(null));
    const field = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), anyValue);
    const item = fc
      .tuple(
        fc.constantFrom(...Object.keys(CODEX_ITEM_TYPES), "unknownType"),
        fc.constantFrom("i1", "i2"),
        field(["command", "cwd", "exitCode", "durationMs", "text", "summary", "content", "server", "tool"]),
        field(["arguments", "result", "error", "contentItems", "name", "output", "prompt", "query", "path"]),
        fc.array(
          fc.record({
            path: anyValue,
            kind: fc.oneof(
              anyValue,
              fc.record({ type: fc.constantFrom("add", "delete", "update"), move_path: anyValue }),
            ),
            diff: anyValue,
          }),
          { maxLength: 3 },
        ),
        fc.oneof(
          anyValue,
          fc.record({ type: fc.constantFrom("search", "openPage", "findInPage"), url: anyValue }),
        ),
      )
      .map(([type, id, a, b, changes, action]) => ({ ...a, ...b, changes, action, type, id }));
    const record = fc.record({
      dir: fc.constant("in" as const),
      msg: fc.record({
        method: fc.constantFrom("item/started", "item/completed", "item/fileChange/patchUpdated"),
        params: fc.record({
          threadId: fc.constant("t"),
          turnId: fc.constant("u"),
          itemId: fc.constant("i1"),
          item,
        }),
      }),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), (entries) => mapAll(entries)),
      { numRuns: 300 },
    );
  });

  it("mutated, dropped, duplicated and reordered real records: no throw, every event valid", () => {
    const mutation = fc.record({
      index: fc.nat(records.length - 1),
      path: fc.array(fc.nat(20), { maxLength: 6 }),
      replacement: fc.jsonValue(),
    });
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 8 }), fc.nat(records.length), (mutations, cut) => {
        const entries = records.map((r) => ({ ...r }));
        for (const m of mutations) {
          const target = entries[m.index];
          if (target !== undefined) target.msg = mutate(target.msg, m.path, m.replacement);
        }
        mapAll([...entries.slice(cut), ...entries.slice(0, cut), ...entries.slice(0, 3)]);
      }),
      { numRuns: 200 },
    );
  });

  it("truncated lines become warnings", () => {
    const mapper = new CodexAppServerMapper({ sessionId: "prop" });
    const line = JSON.stringify(records[5]);
    for (let cut = 1; cut < line.length; cut += 7) {
      const entry = parseTranscriptLine(line.slice(0, cut));
      if (entry === undefined) continue;
      for (const event of mapper.map(entry)) expect(RuntimeEventSchema.parse(event)).toBeDefined();
    }
  });
});
