/**
 * A correlation table (native key → canonical state) with a cap. Entries are released when the thing they
 * track ends; if a provider never ends them, the oldest are evicted so a long session stays bounded.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  #evicted = 0;

  constructor(readonly cap: number = 10_000) {}

  get size(): number {
    return this.#entries.size;
  }

  /** How many entries were dropped for the cap (not released normally). */
  get evicted(): number {
    return this.#evicted;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): void {
    if (this.#entries.has(key)) this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.cap) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) {
        this.#entries.delete(oldest.value);
        this.#evicted++;
      }
    }
  }

  release(key: K): V | undefined {
    const value = this.#entries.get(key);
    this.#entries.delete(key);
    return value;
  }

  values(): IterableIterator<V> {
    return this.#entries.values();
  }

  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }

  clear(): void {
    this.#entries.clear();
  }
}
