/** Narrowing helpers for untrusted native JSON: they never throw. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A safe integer (an exit code, a count), else undefined. */
export function int(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
}

export function bool(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

export function arr(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** A native id as a string key (JSON-RPC ids may be numbers). */
export function idKey(value: unknown): string | undefined {
  if (typeof value === "string" && value.length > 0) return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Short, safe text of any value for messages. */
export function preview(value: unknown, max = 200): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * `table[key]` when the table holds the key itself: a native kind named `__proto__`, `constructor` or `toString`
 * must find nothing in an object-literal table, not a member of Object.prototype.
 */
export function own<V>(table: Readonly<Record<string, V>>, key: string | undefined): V | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}
