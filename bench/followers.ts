// The bench's SSE subscribers for a set of sessions, in whichever thread runs them (bench/subscribers.ts): each
// follows its session through RemoteClient and times every event of the measured window.
import { RemoteClient } from "../src/client/index.js";
import type { RuntimeEvent } from "../src/contracts/events.js";
import { millisecondsOf, systemWallClock } from "../src/kit/wall-clock.js";
import { type HistogramCounts, LatencyHistogram } from "./latency-histogram.js";

/** Where the steady part of a run begins, after the turns were sent. */
export const STEADY_AFTER_MS = 8_000;

/** Per session, each subscriber's event count and last sequence. */
export type FollowState = [id: string, counts: number[], lastSequences: number[]][];

export interface FollowLatency {
  all: HistogramCounts;
  steady: HistogramCounts;
}

/** The same clock the server's drivers stamp `createdAt` with (src/kit/wall-clock.ts). */
export const wallNow = (): number => systemWallClock.nowMs();

const isTurnEnd = (event: RuntimeEvent) => event.type === "turn.completed" || event.type === "turn.aborted";

interface Follower {
  count: number;
  lastSequence: number;
}

export class Followers {
  readonly done: Promise<void>;
  readonly #all = new LatencyHistogram();
  readonly #steady = new LatencyHistogram();
  readonly #followers = new Map<string, Follower[]>();
  /** The measured window: events created from `start` (the turns were sent) until `end` (interrupt or stop). */
  #start = Number.POSITIVE_INFINITY;
  #end = Number.POSITIVE_INFINITY;

  constructor(
    connection: { baseUrl: string; token: string },
    ids: readonly string[],
    perSession: number,
    onTurnEnd: (id: string) => void,
  ) {
    const client = new RemoteClient(connection);
    const loops: Promise<void>[] = [];
    for (const id of ids) {
      const list: Follower[] = [];
      for (let j = 0; j < perSession; j++) {
        const follower: Follower = { count: 0, lastSequence: 0 };
        list.push(follower);
        loops.push(this.#follow(client, id, follower, j === 0 ? onTurnEnd : undefined));
      }
      this.#followers.set(id, list);
    }
    this.done = Promise.all(loops).then(() => undefined);
  }

  async #follow(
    client: RemoteClient,
    id: string,
    follower: Follower,
    onTurnEnd: ((id: string) => void) | undefined,
  ): Promise<void> {
    for await (const event of client.follow(id, { idleTimeoutMs: 120_000 })) {
      follower.count++;
      follower.lastSequence = event.sequence;
      const created = millisecondsOf(event.createdAt);
      if (created >= this.#start && created < this.#end) {
        const now = wallNow();
        this.#all.add(now - created);
        if (now - this.#start >= STEADY_AFTER_MS) this.#steady.add(now - created);
      }
      if (onTurnEnd !== undefined && isTurnEnd(event)) onTurnEnd(id);
    }
  }

  /** Measures what is created from `at` on (turns sent); the catch-up before it is not timed. */
  measureFrom(at: number): void {
    this.#start = at;
  }

  /** Ends the window: what is created from `at` on (the interrupt's events, the stop's) is not timed. */
  measureUntil(at: number): void {
    this.#end = Math.min(this.#end, at);
  }

  state(): FollowState {
    return [...this.#followers].map(([id, list]) => [
      id,
      list.map((f) => f.count),
      list.map((f) => f.lastSequence),
    ]);
  }

  latency(): FollowLatency {
    return { all: this.#all.counts(), steady: this.#steady.counts() };
  }
}
