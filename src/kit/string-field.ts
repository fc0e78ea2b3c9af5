/**
 * A string-valued key of a JSON object being written field by field, with the JSON of its last value: consecutive
 * events mostly repeat their ids, times and tags. Pure.
 */
export class StringField {
  readonly #prefix: string;
  #value: string | undefined;
  #json = "";
  #member = "";

  /** `key`: a plain identifier, written as it is. */
  constructor(key: string) {
    this.#prefix = `,"${key}":`;
  }

  /** The value's JSON. */
  json(value: string): string {
    if (value !== this.#value) this.#remember(value);
    return this.#json;
  }

  /** `,"key":` and the value's JSON: the field as a member after the first. */
  member(value: string): string {
    if (value !== this.#value) this.#remember(value);
    return this.#member;
  }

  /** `member` for an optional value: "" when it is absent, undefined when it is not a string (not the writer's). */
  optionalMember(value: unknown): string | undefined {
    if (value === undefined) return "";
    return typeof value === "string" ? this.member(value) : undefined;
  }

  #remember(value: string): void {
    this.#value = value;
    this.#json = JSON.stringify(value);
    this.#member = `${this.#prefix}${this.#json}`;
  }
}
