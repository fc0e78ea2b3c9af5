import type { RuntimeEvent } from "../contracts/events.js";
import { Fifo } from "../kit/fifo.js";

/**
 * The driver → host queue. Bounded by a high-water mark: when the host reads slowly, `push` returns false and
 * the driver pauses its source until `onDrain` fires, so nothing is buffered without limit.
 */
export class EventChannel implements AsyncIterable<RuntimeEvent> {
  readonly #buffer = new Fifo<RuntimeEvent>();
  #closed = false;
  #waiter: (() => void) | undefined;
  #drainListeners: Array<() => void> = [];

  constructor(readonly highWaterMark = 1_000) {}

  get buffered(): number {
    return this.#buffer.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queues an event; false means "over the high-water mark, pause the source". */
  push(event: RuntimeEvent): boolean {
    if (this.#closed) return false;
    this.#buffer.push(event);
    this.#wake();
    return this.buffered < this.highWaterMark;
  }

  pushAll(events: readonly RuntimeEvent[]): boolean {
    let ok = true;
    for (const event of events) ok = this.push(event) && ok;
    return ok;
  }

  /** Calls `listener` once when the buffer falls below half the high-water mark. */
  onDrain(listener: () => void): void {
    this.#drainListeners.push(listener);
  }

  /**
   * Resolves when the host has read the queue down (as onDrain) or `signal` aborts. Its abort listener goes once
   * the queue drains: a long session pauses many times on one signal, and listeners left on it would pile up
   * (Node warns past ten).
   */
  drained(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => resolve();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.onDrain(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  /** Calls the waiting drain listeners now: the source must read on although the host is behind. */
  releaseDrainListeners(): void {
    const listeners = this.#drainListeners;
    this.#drainListeners = [];
    for (const listener of listeners) listener();
  }

  close(): void {
    this.#closed = true;
    this.#wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RuntimeEvent> {
    while (true) {
      const event = this.#buffer.shift();
      if (event !== undefined) {
        this.#maybeDrain();
        yield event;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
  }

  #maybeDrain(): void {
    if (this.#drainListeners.length === 0 || this.buffered > this.highWaterMark / 2) return;
    this.releaseDrainListeners();
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}
