/** Narrowing helpers for request bodies, which are untrusted JSON. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function schemaPropertyNames(schema: unknown): Set<string> {
  const properties = isObject(schema) ? schema.properties : undefined;
  return new Set(isObject(properties) ? Object.keys(properties) : []);
}
