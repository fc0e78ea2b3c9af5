export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

/**
 * Latency per delivered event: the subscriber's wall clock at delivery minus the event's `createdAt`, which the
 * driver stamps from the same machine's wall clock when it reads the native record. So it spans mapping, the
 * store write, the fan-out and SSE to the subscriber; both clocks read to the microsecond (src/kit/wall-clock.ts).
 * Kept as a histogram (bounded, whatever the event count): 0.1 ms buckets below 100 ms,
 * 10 ms buckets up to 10 minutes.
 */
export class LatencyHistogram {
  static readonly FINE_MS = 0.1;
  static readonly FINE_UNTIL_MS = 100;
  static readonly COARSE_MS = 10;
  readonly #fine = new Uint32Array(LatencyHistogram.FINE_UNTIL_MS / LatencyHistogram.FINE_MS);
  readonly #coarse = new Uint32Array(600_000 / LatencyHistogram.COARSE_MS);
  #count = 0;
  #max = 0;

  add(ms: number): void {
    const at = Math.max(0, ms);
    if (at < LatencyHistogram.FINE_UNTIL_MS) {
      const bucket = Math.floor(at / LatencyHistogram.FINE_MS);
      this.#fine[bucket] = (this.#fine[bucket] ?? 0) + 1;
    } else {
      const bucket = Math.min(this.#coarse.length - 1, Math.floor(at / LatencyHistogram.COARSE_MS));
      this.#coarse[bucket] = (this.#coarse[bucket] ?? 0) + 1;
    }
    this.#count++;
    if (ms > this.#max) this.#max = ms;
  }

  /** The upper edge of the bucket holding the q-quantile (never above the largest sample). */
  quantile(q: number): number {
    return Math.min(this.#max, this.#bucketEdge(q));
  }

  #bucketEdge(q: number): number {
    const target = Math.ceil(q * this.#count);
    let seen = 0;
    for (let i = 0; i < this.#fine.length; i++) {
      seen += this.#fine[i] ?? 0;
      if (seen >= target) return (i + 1) * LatencyHistogram.FINE_MS;
    }
    for (let i = 0; i < this.#coarse.length; i++) {
      seen += this.#coarse[i] ?? 0;
      if (seen >= target) return (i + 1) * LatencyHistogram.COARSE_MS;
    }
    return this.#max;
  }

  get count(): number {
    return this.#count;
  }

  summary(): LatencySummary {
    return { p50Ms: this.quantile(0.5), p99Ms: this.quantile(0.99), maxMs: this.max, samples: this.count };
  }

  get max(): number {
    return this.#max;
  }

  /** What a histogram filled elsewhere (a worker thread) hands over: structured-cloneable. */
  counts(): HistogramCounts {
    return { fine: this.#fine, coarse: this.#coarse, count: this.#count, max: this.#max };
  }

  merge(other: HistogramCounts): void {
    for (let i = 0; i < this.#fine.length; i++) this.#fine[i] = (this.#fine[i] ?? 0) + (other.fine[i] ?? 0);
    for (let i = 0; i < this.#coarse.length; i++)
      this.#coarse[i] = (this.#coarse[i] ?? 0) + (other.coarse[i] ?? 0);
    this.#count += other.count;
    this.#max = Math.max(this.#max, other.max);
  }
}

export interface HistogramCounts {
  fine: Uint32Array;
  coarse: Uint32Array;
  count: number;
  max: number;
}
