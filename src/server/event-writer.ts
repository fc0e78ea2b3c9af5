import type { RuntimeEvent } from "../contracts/events.js";
import { afterMicrotasks } from "./after-microtasks.js";

/**
 * Writes a session's events to the store in batches, in order: what arrives while a write is under way goes in
 * the next one. `backlog` lets the reader stop taking from the agent when the store falls behind.
 *
 * A batch is taken once the microtasks have drained (afterMicrotasks), not at the first push: the events a
 * driver maps from one native record reach the writer one microtask apart (turn.completed, then the state it
 * leads to), and taken at once they would be split over two commits, a reader seeing the first without the
 * second in between.
 */
export class EventWriter {
  #queue: RuntimeEvent[] = [];
  #running: Promise<void> | undefined;
  #failure: unknown;

  constructor(
    readonly write: (events: RuntimeEvent[]) => Promise<void>,
    /** Told at once when a write fails (the agent may be idle, pushing nothing that would throw). */
    readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  get backlog(): number {
    return this.#queue.length;
  }

  /** Throws the store's error once a write failed: nothing is taken that cannot be stored. */
  push(event: RuntimeEvent): void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#queue.push(event);
    this.#running ??= this.#drain();
  }

  /** Settles when everything pushed so far is written; rejects with the store's error once a write failed. */
  async idle(): Promise<void> {
    await this.#running;
    if (this.#failure !== undefined) throw this.#failure;
  }

  async #drain(): Promise<void> {
    await afterMicrotasks();
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        await this.write(batch);
      }
    } catch (error) {
      this.#failure = error;
      this.#queue = [];
      this.onFailure(error);
    } finally {
      this.#running = undefined;
    }
  }
}
