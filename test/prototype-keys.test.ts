import { describe, expect, it } from "vitest";
import { fixtureLines } from "../bench/fixture-corpus.js";
import { MAPPER_DEFINITIONS } from "../src/mappers/registry.js";
import { checkMapperRun } from "./support/mapper-fuzz.js";

/** Names an object literal table answers for without holding them: `table["__proto__"]` is Object.prototype. */
const PROTOTYPE_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
/** The fields native records name their kind in (method, type, subtype, sessionUpdate, status, kind, …). */
const KIND_KEYS = new Set([
  "method",
  "type",
  "subtype",
  "sessionUpdate",
  "status",
  "kind",
  "name",
  "itemType",
]);

/** The record with every string field whose key is in `keys` set to `name`, at every depth. */
function renamed(value: unknown, name: string, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((entry) => renamed(entry, name, keys));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const next = keys.has(key) && typeof field === "string" ? name : renamed(field, name, keys);
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function renamedLine(line: string, name: string, keys: ReadonlySet<string>): string {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    // transcript envelopes ({t, dir, msg}) keep their own fields: only the native message is renamed
    if (typeof parsed === "object" && parsed !== null && "msg" in parsed)
      return JSON.stringify({ ...parsed, msg: renamed(parsed.msg, name, keys) });
    return JSON.stringify(renamed(parsed, name, keys));
  } catch {
    return line;
  }
}

describe.each(MAPPER_DEFINITIONS.map((d) => [d.source, d] as const))(
  "mapper %s with native kinds named like Object.prototype members",
  (_source, definition) => {
    const fixtures = fixtureLines(definition.source);

    it.each(PROTOTYPE_NAMES)("every kind field named %s: valid events only", (name) => {
      const lines = fixtures.map((line) => renamedLine(line, name, KIND_KEYS));
      expect(lines.length).toBeGreaterThan(0);
      expect(checkMapperRun(definition, lines)?.problem).toBeUndefined();
    });

    // One key at a time, so a record still reaches the handler whose own table the renamed field is looked up in.
    it.each([...KIND_KEYS])("only `%s` named __proto__: valid events only", (key) => {
      const lines = fixtures.map((line) => renamedLine(line, "__proto__", new Set([key])));
      expect(checkMapperRun(definition, lines)?.problem).toBeUndefined();
    });
  },
);
