import type { RuntimeEvent } from "../contracts/events.js";

/** Reads stored events synchronously: what makes the hand-over from stored to live events gap-free. */
export type SyncEventReader = (sessionId: string, after: number, limit: number) => RuntimeEvent[];

export interface FollowLimits {
  /** Committed events a follower holds before it falls back to reading the database. */
  bufferEvents: number;
  /** Events per database read while catching up. */
  pageEvents: number;
}

export interface FollowStats {
  followers: number;
  bufferedEvents: number;
  maxBuffered: number;
  /** Times a follower's buffer was full and it went back to reading the file. */
  overflows: number;
}

/**
 * One `follow()` in progress. While `behind` it reads from the database and the hub does not hand it events;
 * once a read comes back short it is caught up, and from then on every commit is pushed to `buffer`. The read and
 * the switch happen in one synchronous step, and commits are synchronous too, so no commit falls between them.
 * A buffer that would grow past its cap is dropped and the follower is behind again: a slow reader costs a bounded
 * buffer, never the whole stream.
 */
class Follower {
  behind = true;
  buffer: RuntimeEvent[] = [];
  /** Index of the next buffered event to yield (shift() on a long array is linear). */
  head = 0;
  #wake: (() => void) | undefined;

  constructor(
    readonly sessionId: string,
    readonly cap: number,
  ) {}

  push(events: readonly RuntimeEvent[]): boolean {
    if (this.behind) return false;
    let overflowed = false;
    if (this.buffer.length - this.head + events.length > this.cap) {
      overflowed = true;
      this.behind = true;
      this.buffer = [];
      this.head = 0;
    } else {
      for (const event of events) this.buffer.push(event);
    }
    this.wake();
    return overflowed;
  }

  next(): RuntimeEvent | undefined {
    const event = this.buffer[this.head];
    if (event === undefined) return undefined;
    this.head++;
    if (this.head === this.buffer.length) {
      this.buffer = [];
      this.head = 0;
    }
    return event;
  }

  waitForMore(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  wake(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** The live followers of every session, told about each commit by the store. */
export class FollowerHub {
  readonly #bySession = new Map<string, Set<Follower>>();
  #closed = false;
  #overflows = 0;

  constructor(
    readonly read: SyncEventReader,
    readonly limits: FollowLimits,
  ) {}

  /** Called after a commit with the events it stored (duplicates already left out), in sequence order. */
  committed(sessionId: string, events: readonly RuntimeEvent[]): void {
    const followers = this.#bySession.get(sessionId);
    if (followers === undefined || events.length === 0) return;
    for (const follower of followers) if (follower.push(events)) this.#overflows++;
  }

  /** Live follows, the committed events they hold (each at most the buffer cap), and how often one fell behind. */
  stats(): FollowStats {
    let followers = 0;
    let bufferedEvents = 0;
    let maxBuffered = 0;
    for (const set of this.#bySession.values())
      for (const follower of set) {
        const held = follower.buffer.length - follower.head;
        followers++;
        bufferedEvents += held;
        maxBuffered = Math.max(maxBuffered, held);
      }
    return { followers, bufferedEvents, maxBuffered, overflows: this.#overflows };
  }

  /** Ends every follow (the store is closing). */
  close(): void {
    this.#closed = true;
    for (const followers of this.#bySession.values()) for (const follower of followers) follower.wake();
  }

  async *follow(sessionId: string, after: number, signal: AbortSignal): AsyncGenerator<RuntimeEvent> {
    if (this.#closed || signal.aborted) return;
    const follower = new Follower(sessionId, this.limits.bufferEvents);
    this.#add(follower);
    const onAbort = () => follower.wake();
    signal.addEventListener("abort", onAbort, { once: true });
    let last = after;
    try {
      while (!signal.aborted && !this.#closed) {
        if (follower.behind) {
          const page = this.read(sessionId, last, this.limits.pageEvents);
          if (page.length < this.limits.pageEvents) follower.behind = false;
          for (const event of page) {
            last = event.sequence;
            yield event;
            if (signal.aborted || this.#closed) return;
          }
          continue;
        }
        const event = follower.next();
        if (event === undefined) {
          await follower.waitForMore();
          continue;
        }
        if (event.sequence <= last) continue;
        last = event.sequence;
        yield event;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.#remove(follower);
    }
  }

  #add(follower: Follower): void {
    let followers = this.#bySession.get(follower.sessionId);
    if (followers === undefined) {
      followers = new Set();
      this.#bySession.set(follower.sessionId, followers);
    }
    followers.add(follower);
  }

  #remove(follower: Follower): void {
    const followers = this.#bySession.get(follower.sessionId);
    if (followers === undefined) return;
    followers.delete(follower);
    if (followers.size === 0) this.#bySession.delete(follower.sessionId);
  }
}
