import { describe, expect, it } from "vitest";
import { Fifo } from "../../src/kit/fifo.js";
import { liveHeap } from "../support/live-heap.js";

/** Weak references to `count` fresh objects pushed into `fifo` (made in a function of their own: no local keeps them). */
function pushTracked(fifo: Fifo<object>, count: number): WeakRef<object>[] {
  const refs: WeakRef<object>[] = [];
  for (let i = 0; i < count; i++) {
    const item = { payload: "x".repeat(64) + i };
    fifo.push(item);
    refs.push(new WeakRef(item));
  }
  return refs;
}

/** A WeakRef's target stays alive until the end of the job that made or read it: collect after a turn. */
async function collected(refs: WeakRef<object>[]): Promise<boolean[]> {
  await new Promise((resolve) => setImmediate(resolve));
  liveHeap();
  return refs.map((ref) => ref.deref() === undefined);
}

describe("Fifo", () => {
  it("hands items out in the order they came, with peek and peekMany leaving them in", () => {
    const fifo = new Fifo<number>();
    for (let n = 1; n <= 5; n++) fifo.push(n);
    expect(fifo.peek()).toBe(1);
    expect(fifo.peekMany(3)).toEqual([1, 2, 3]);
    expect([fifo.shift(), fifo.shift()]).toEqual([1, 2]);
    expect(fifo.length).toBe(3);
    fifo.push(6);
    expect(fifo.peekMany(10)).toEqual([3, 4, 5, 6]);
    expect([fifo.shift(), fifo.shift(), fifo.shift(), fifo.shift(), fifo.shift()]).toEqual([
      3,
      4,
      5,
      6,
      undefined,
    ]);
    expect(fifo.length).toBe(0);
  });

  it("keeps order across its compaction: 10,000 in, taken one by one while more come", () => {
    const fifo = new Fifo<number>();
    const taken: number[] = [];
    for (let n = 0; n < 10_000; n++) {
      fifo.push(n);
      if (n % 3 !== 0) taken.push(fifo.shift() as number);
    }
    while (fifo.length > 0) taken.push(fifo.shift() as number);
    expect(taken).toEqual(Array.from({ length: 10_000 }, (_, n) => n));
  });

  it("lets go of a taken item at once, while the queue still holds others", async () => {
    const fifo = new Fifo<object>();
    const refs = pushTracked(fifo, 20);
    for (let i = 0; i < 10; i++) fifo.shift();
    const gone = await collected(refs);
    expect(gone.slice(0, 10)).toEqual(Array(10).fill(true));
    expect(gone.slice(10)).toEqual(Array(10).fill(false));
    expect(fifo.length).toBe(10);
  });
});
