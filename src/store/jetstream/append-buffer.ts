/** How much an outage may buffer before `append` waits (backpressure) instead of accepting more. */
export interface BufferLimits {
  events: number;
  bytes: number;
}

export const DEFAULT_BUFFER_LIMITS: BufferLimits = { events: 100_000, bytes: 64 * 1024 * 1024 };

/**
 * The count of events accepted but not yet stored, across every session of a store. A caller reserves room before
 * queueing and releases it once stored; past the limits it waits, so a long outage holds memory to the limits and
 * slows the producer instead of dropping anything. One event larger than the limit is let in when the buffer is
 * empty, or it would wait forever.
 */
export class AppendBuffer {
  #events = 0;
  #bytes = 0;
  readonly #waiting: Array<{ events: number; bytes: number; resolve: () => void }> = [];

  constructor(readonly limits: BufferLimits = DEFAULT_BUFFER_LIMITS) {}

  get events(): number {
    return this.#events;
  }

  get bytes(): number {
    return this.#bytes;
  }

  reserve(events: number, bytes: number): Promise<void> {
    if (this.#waiting.length === 0 && this.#fits(events, bytes)) {
      this.#take(events, bytes);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push({ events, bytes, resolve }));
  }

  release(events: number, bytes: number): void {
    this.#events -= events;
    this.#bytes -= bytes;
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0];
      if (next === undefined || !this.#fits(next.events, next.bytes)) break;
      this.#waiting.shift();
      this.#take(next.events, next.bytes);
      next.resolve();
    }
  }

  #fits(events: number, bytes: number): boolean {
    if (this.#events === 0) return true;
    return this.#events + events <= this.limits.events && this.#bytes + bytes <= this.limits.bytes;
  }

  #take(events: number, bytes: number): void {
    this.#events += events;
    this.#bytes += bytes;
  }
}
