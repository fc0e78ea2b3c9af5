import { describe, expect, it } from "vitest";
import { LatencyHistogram } from "../../bench/latency-histogram.js";

describe("the bench's latency histogram", () => {
  it("merged from parts (worker threads' counts) gives the quantiles of all the samples in one", () => {
    const whole = new LatencyHistogram();
    const parts = [new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram()];
    for (let i = 0; i < 3_000; i++) {
      // three different shapes: the merge must not take one part's quantiles for all
      const ms = i % 3 === 0 ? 0.5 + (i % 7) : i % 3 === 1 ? 20 + (i % 50) : 150 + i;
      whole.add(ms);
      parts[i % 3]?.add(ms);
    }
    const merged = new LatencyHistogram();
    for (const part of parts) merged.merge(structuredClone(part.counts()));
    expect(merged.summary()).toEqual(whole.summary());
    expect(merged.count).toBe(3_000);
    expect(merged.quantile(0.5)).not.toBe(parts[0]?.quantile(0.5));
  });
});
