import type { RuntimeEvent } from "../../src/contracts/events.js";
import { ThreadProjector } from "../../src/projection/reducer.js";
import type { ItemView, ThreadView } from "../../src/projection/thread-view.js";

/** How far up a parentItemId chain a change is passed on (a chain longer than this is hostile input). */
const MAX_PARENT_DEPTH = 16;
/** Sequences kept per item, turn or request for its raw view (deltas are not kept: they are the bulk). */
const MAX_SEQUENCES = 32;

/**
 * One session's thread as the page holds it: the projection, the last sequence applied (events at or below it
 * are duplicates of a reconnect and are dropped), and a version per item so an unchanged item is not re-rendered.
 * No event is kept: memory grows with the thread view, not with the stream.
 */
export class LiveThread {
  readonly #projector = new ThreadProjector();
  readonly #itemVersions = new Map<string, number>();
  readonly #parents = new Map<string, string>();
  readonly #turnVersions = new Map<string, number>();
  readonly #items = new Map<string, ItemView>();
  readonly #children = new Map<string, ItemView[]>();
  readonly #sequences = new Map<string, number[]>();
  /** Items of no turn (e.g. a history's items before its first turn event). */
  readonly looseItems: ItemView[] = [];
  lastSequence = 0;
  /** Bumped by every applied event: the page re-renders when it changes. */
  version = 0;
  /** Events the projection could not fold (kept as a count; the page shows it). */
  rejected = 0;

  get view(): ThreadView {
    return this.#projector.view;
  }

  /** Applies an event unless its sequence was already seen; true when it was applied. */
  accept(event: RuntimeEvent): boolean {
    const sequence = event.sequence;
    if (typeof sequence === "number" && Number.isFinite(sequence)) {
      if (sequence <= this.lastSequence) return false;
      this.lastSequence = sequence;
    }
    const itemCount = this.view.items.length;
    try {
      this.#projector.apply(event);
    } catch {
      this.rejected++;
      return false;
    }
    this.version++;
    if (typeof sequence === "number" && event.type !== "content.delta") this.#remember(event, sequence);
    for (let i = itemCount; i < this.view.items.length; i++) this.#index(this.view.items[i] as ItemView);
    if (typeof event.turnId === "string") this.#turnVersions.set(event.turnId, this.version);
    if (typeof event.itemId === "string") {
      if (typeof event.parentItemId === "string") this.#parents.set(event.itemId, event.parentItemId);
      this.#touch(event.itemId);
    } else if (typeof event.parentItemId === "string") {
      this.#touch(event.parentItemId);
    }
    return true;
  }

  /**
   * The sequences of the events (but deltas) of an item, a turn (its start and end) or a request, oldest first:
   * the page fetches them to show their native records.
   */
  sequencesOf(id: string): readonly number[] {
    return this.#sequences.get(id) ?? [];
  }

  #remember(event: RuntimeEvent, sequence: number): void {
    const keys = [
      event.itemId,
      event.requestId,
      event.type.startsWith("turn.") && event.itemId === undefined ? event.turnId : undefined,
    ];
    for (const key of keys) {
      if (typeof key !== "string") continue;
      const list = this.#sequences.get(key);
      if (list === undefined) this.#sequences.set(key, [sequence]);
      else if (list.length < MAX_SEQUENCES) list.push(sequence);
      else list[MAX_SEQUENCES - 1] = sequence;
    }
  }

  /** Changes whenever the item or anything nested under it changed. */
  itemVersion(itemId: string): number {
    return this.#itemVersions.get(itemId) ?? 0;
  }

  turnVersion(turnId: string): number {
    return this.#turnVersions.get(turnId) ?? 0;
  }

  item(itemId: string): ItemView | undefined {
    return this.#items.get(itemId);
  }

  /** The items that name this one as their parent (a subagent's activity under the call that spawned it). */
  children(itemId: string): readonly ItemView[] {
    return this.#children.get(itemId) ?? [];
  }

  /** Shown at the top of its turn rather than under a parent: no parent, or one the stream never opened. */
  isTopLevel(item: ItemView): boolean {
    return item.parentItemId === undefined || !this.#items.has(item.parentItemId);
  }

  #index(item: ItemView): void {
    this.#items.set(item.itemId, item);
    if (item.parentItemId !== undefined && item.parentItemId !== item.itemId) {
      const siblings = this.#children.get(item.parentItemId);
      if (siblings === undefined) this.#children.set(item.parentItemId, [item]);
      else siblings.push(item);
    }
    if (item.turnId === undefined && this.isTopLevel(item)) this.looseItems.push(item);
  }

  #touch(itemId: string): void {
    let id: string | undefined = itemId;
    for (let depth = 0; id !== undefined && depth < MAX_PARENT_DEPTH; depth++) {
      this.#itemVersions.set(id, this.version);
      id = this.#parents.get(id);
    }
  }
}
