import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/kit/bounded-map.js";
import { liveHeap } from "../support/live-heap.js";

/** The plain definition: insertion order, a re-set moves a key to the end, the oldest goes past the cap. */
class ReferenceMap {
  readonly entries = new Map<string, number>();
  evicted = 0;
  constructor(readonly cap: number) {}
  set(key: string, value: number): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.cap) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
        this.evicted++;
      }
    }
  }
}

describe("BoundedMap", () => {
  it("evicts exactly like the plain definition under random sets, re-sets, releases and clears", () => {
    let seed = 42;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (const cap of [1, 3, 50]) {
      const map = new BoundedMap<string, number>(cap);
      const reference = new ReferenceMap(cap);
      for (let step = 0; step < 20_000; step++) {
        const key = `k${next(cap * 4)}`;
        const op = next(100);
        if (op < 70) {
          map.set(key, step);
          reference.set(key, step);
        } else if (op < 99) {
          map.release(key);
          reference.entries.delete(key);
        } else {
          map.clear();
          reference.entries.clear();
        }
        if (step % 97 === 0) expect([...map.entries()]).toEqual([...reference.entries.entries()]);
      }
      expect([...map.entries()]).toEqual([...reference.entries.entries()]);
      expect(map.evicted).toBe(reference.evicted);
    }
  });

  it("holds no memory for entries set and released, below the cap and after it was reached", () => {
    const churn = (map: BoundedMap<string, number>, from: number) => {
      for (let i = from; i < from + 300_000; i++) {
        map.set(`k${i}`, i);
        map.release(`k${i}`);
      }
    };
    const neverFull = new BoundedMap<string, number>(10_000);
    const onceFull = new BoundedMap<string, number>(1_000);
    for (let i = 0; i < 2_000; i++) onceFull.set(`full${i}`, i);
    for (let i = 0; i < 2_000; i++) onceFull.release(`full${i}`);
    churn(neverFull, 0);
    churn(onceFull, 0);
    const before = liveHeap();
    churn(neverFull, 300_000);
    churn(onceFull, 300_000);
    // a cursor left standing kept every table the map outgrew: ~40 MB per map here
    expect(liveHeap() - before).toBeLessThan(2 ** 20);
    expect(neverFull.size + onceFull.size).toBe(0);
    expect(onceFull.evicted).toBe(1_000);
  });

  it("evicts in constant time once full (no walk over deleted slots)", () => {
    const map = new BoundedMap<string, true>(10_000);
    for (let i = 0; i < 300_000; i++) map.set(`k${i}`, true);
    expect(map.size).toBe(10_000);
    expect(map.evicted).toBe(290_000);
    expect(map.entries().next().value?.[0]).toBe("k290000");
  });
});
