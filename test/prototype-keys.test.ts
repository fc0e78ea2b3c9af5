import { describe, expect, it } from "vitest";
import { fixtureLines } from "../bench/fixture-corpus.js";
import { MAPPER_DEFINITIONS } from "../src/mappers/registry.js";
import { checkMapperRun } from "../src/test-support/mapper-fuzz.js";

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

/** The record with every kind-naming string field set to `name`, at every depth. */
function renamed(value: unknown, name: string): unknown {
  if (Array.isArray(value)) return value.map((entry) => renamed(entry, name));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const next = KIND_KEYS.has(key) && typeof field === "string" ? name : renamed(field, name);
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function renamedLine(line: string, name: string): string {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    // transcript envelopes ({t, dir, msg}) keep their own fields: only the native message is renamed
    if (typeof parsed === "object" && parsed !== null && "msg" in parsed)
      return JSON.stringify({ ...parsed, msg: renamed(parsed.msg, name) });
    return JSON.stringify(renamed(parsed, name));
  } catch {
    return line;
  }
}

describe.each(MAPPER_DEFINITIONS.map((d) => [d.source, d] as const))(
  "mapper %s with native kinds named like Object.prototype members",
  (_source, definition) => {
    it.each(PROTOTYPE_NAMES)("%s: valid events only, never a prototype as a value", (name) => {
      const lines = fixtureLines(definition.source).map((line) => renamedLine(line, name));
      expect(lines.length).toBeGreaterThan(0);
      expect(checkMapperRun(definition, lines)?.problem).toBeUndefined();
    });
  },
);
