import { BoundedMap } from "./bounded-map.js";
import { type IdKind, mintId } from "./ids.js";

export interface OpenEntry<V> {
  id: string;
  nativeKey: string;
  state: V;
}

/**
 * Native key → canonical id plus whatever the mapper tracks for it, bounded by a cap.
 * `open` on a key already open returns the existing entry (de-duplicated starts).
 */
export class IdTable<V = undefined> {
  readonly #open: BoundedMap<string, OpenEntry<V>>;
  /** Ids of recently closed keys: late records of an ended item or turn would otherwise re-hash the key. */
  readonly #closed = new BoundedMap<string, string>(256);

  constructor(
    readonly sessionId: string,
    readonly kind: IdKind,
    cap = 10_000,
  ) {
    this.#open = new BoundedMap(cap);
  }

  get size(): number {
    return this.#open.size;
  }

  get cap(): number {
    return this.#open.cap;
  }

  /** The id this key has or would have; does not open it. */
  idOf(nativeKey: string): string {
    const id = this.#open.get(nativeKey)?.id ?? this.#closed.get(nativeKey);
    if (id !== undefined) return id;
    const minted = mintId(this.sessionId, this.kind, nativeKey);
    this.#closed.set(nativeKey, minted);
    return minted;
  }

  get(nativeKey: string): OpenEntry<V> | undefined {
    return this.#open.get(nativeKey);
  }

  isOpen(nativeKey: string): boolean {
    return this.#open.has(nativeKey);
  }

  open(nativeKey: string, state: V): { entry: OpenEntry<V>; isNew: boolean } {
    const existing = this.#open.get(nativeKey);
    if (existing !== undefined) return { entry: existing, isNew: false };
    const id = this.#closed.get(nativeKey) ?? mintId(this.sessionId, this.kind, nativeKey);
    const entry = { id, nativeKey, state };
    this.#open.set(nativeKey, entry);
    return { entry, isNew: true };
  }

  close(nativeKey: string): OpenEntry<V> | undefined {
    const entry = this.#open.release(nativeKey);
    if (entry !== undefined) this.#closed.set(nativeKey, entry.id);
    return entry;
  }

  openEntries(): OpenEntry<V>[] {
    return [...this.#open.values()];
  }

  clear(): void {
    this.#open.clear();
    this.#closed.clear();
  }
}
