/**
 * A correlation table (native key → canonical state) with a cap. Entries are released when the thing they
 * track ends; if a provider never ends them, the oldest are evicted so a long session stays bounded.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  /**
   * Where eviction left off. Every key it has passed was evicted, so its next key is the oldest one left. A fresh
   * `keys().next()` per eviction would walk over every deleted slot at the front of the table each time
   * (V8 keeps them until a rehash): quadratic once the cap is reached.
   *
   * A live iterator keeps every table the map has outgrown since it last moved (V8 chains them so the iterator
   * can catch up), so a cursor that stood still while entries were set and released held on to all of them: the
   * heap grew with every record. The cursor is made at the first eviction and dropped after `cap` changes
   * without one, which bounds what it keeps to the tables of `cap` changes, and a new one walks deleted slots
   * at most once per `cap` changes.
   */
  #cursor: IterableIterator<K> | undefined;
  /** Changes since the cursor last moved. */
  #idle = 0;
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
    const entries = this.#entries;
    const size = entries.size;
    entries.set(key, value);
    // An existing key moves to the newest end (delete + set): one lookup for the usual new key instead of three.
    if (entries.size === size) {
      entries.delete(key);
      entries.set(key, value);
    } else if (entries.size > this.cap) {
      this.#evictOldest();
      return;
    }
    this.#changed();
  }

  release(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (this.#entries.delete(key)) this.#changed();
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
    this.#cursor = undefined;
  }

  #evictOldest(): void {
    this.#idle = 0;
    let oldest = this.#cursor?.next();
    if (oldest === undefined || oldest.done) {
      this.#cursor = this.#entries.keys();
      oldest = this.#cursor.next();
    }
    if (!oldest.done) {
      this.#entries.delete(oldest.value);
      this.#evicted++;
    }
  }

  /** A change that moved no cursor: after `cap` of them the cursor is let go (see #cursor). */
  #changed(): void {
    if (this.#cursor !== undefined && ++this.#idle > this.cap) this.#cursor = undefined;
  }
}
