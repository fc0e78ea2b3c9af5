/** A string's JSON, kept for the last value asked for: consecutive events mostly repeat their ids and tags. */
export class StringJsonCache {
  #value: string | undefined;
  #json = "";

  json(value: string): string {
    if (value !== this.#value) {
      this.#value = value;
      this.#json = JSON.stringify(value);
    }
    return this.#json;
  }
}
