/**
 * Joins the parts of a composite map key (`a|b|c`), returning the very same string while the parts repeat: a
 * stream's records for one item come in a row, and a key string already used is not joined, flattened and hashed
 * again on every lookup. Only the last parts are remembered, so it holds nothing else.
 */
export class KeyJoiner {
  #first = "";
  #second = "";
  #third: string | number | undefined;
  #key: string | undefined;

  constructor(readonly separator: string) {}

  join(first: string, second: string, third?: string | number): string {
    if (this.#key !== undefined && first === this.#first && second === this.#second && third === this.#third)
      return this.#key;
    this.#first = first;
    this.#second = second;
    this.#third = third;
    const separator = this.separator;
    this.#key =
      third === undefined
        ? `${first}${separator}${second}`
        : `${first}${separator}${second}${separator}${third}`;
    return this.#key;
  }
}
