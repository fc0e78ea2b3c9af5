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
    return this.#open.get(nativeKey)?.id ?? mintId(this.sessionId, this.kind, nativeKey);
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
    const entry = { id: mintId(this.sessionId, this.kind, nativeKey), nativeKey, state };
    this.#open.set(nativeKey, entry);
    return { entry, isNew: true };
  }

  close(nativeKey: string): OpenEntry<V> | undefined {
    return this.#open.release(nativeKey);
  }

  openEntries(): OpenEntry<V>[] {
    return [...this.#open.values()];
  }

  clear(): void {
    this.#open.clear();
  }
}
