import type { StringField } from "./string-field.js";

/**
 * The JSON of a plain object written member by member, with the keys written so far, so the caller can check that
 * the object has exactly those keys in that order (then its JSON is what `JSON.stringify` writes). Pure.
 */
export class MemberWriter {
  json = "";
  readonly #keys: string[];
  #count = 0;

  /** `leadingKeys`: the keys every object starts with, written by the caller in `begin`. */
  constructor(readonly leadingKeys: readonly string[]) {
    this.#keys = [...leadingKeys];
  }

  /** Starts an object with the JSON of its leading keys' members (`{` included). */
  begin(json: string): void {
    this.json = json;
    this.#count = this.leadingKeys.length;
  }

  /** Writes a string member when present; false when it is present but not a string (not this writer's shape). */
  optional(field: StringField, value: unknown): boolean {
    if (value === undefined) return true;
    if (typeof value !== "string") return false;
    this.#keys[this.#count++] = field.key;
    this.json += field.member(value);
    return true;
  }

  /** Writes `,"key":json` (`key` is a plain identifier, written as it is). */
  add(key: string, json: string): void {
    this.#keys[this.#count++] = key;
    this.json += `,"${key}":${json}`;
  }

  /** A key the caller writes itself after the others (it must be there too). */
  expect(key: string): void {
    this.#keys[this.#count++] = key;
  }

  /** Whether the object's own enumerable keys are exactly the keys written and expected, in that order. */
  matchesKeysOf(record: object): boolean {
    const keys = this.#keys;
    let at = 0;
    for (const key in record) if (key !== keys[at++]) return false;
    return at === this.#count;
  }
}
