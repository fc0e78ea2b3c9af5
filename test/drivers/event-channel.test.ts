import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { EventChannel } from "../../src/drivers/event-channel.js";
import { liveHeap } from "../support/live-heap.js";
import { sampleEvent } from "../support/sample-events.js";

describe("EventChannel", () => {
  it("signals back-pressure past the high-water mark and drains when the host catches up", async () => {
    const channel = new EventChannel(4);
    const accepted = [1, 2, 3, 4, 5].map((n) => channel.push(sampleEvent("runtime.warning", n)));
    expect(accepted).toEqual([true, true, true, false, false]);
    let drained = false;
    channel.onDrain(() => {
      drained = true;
    });
    const iterator = channel[Symbol.asyncIterator]();
    await iterator.next();
    expect(drained).toBe(false);
    await iterator.next();
    await iterator.next();
    expect(drained).toBe(true);
    channel.close();
    const rest: number[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest.push(next.value.sequence);
    expect(rest).toEqual([4, 5]);
  });

  it("drained(signal) resolves at each drain and leaves no listener on the signal", async () => {
    const channel = new EventChannel(2);
    const abort = new AbortController();
    const iterator = channel[Symbol.asyncIterator]();
    for (let pause = 0; pause < 30; pause++) {
      channel.push(sampleEvent("runtime.warning", 2 * pause + 1));
      channel.push(sampleEvent("runtime.warning", 2 * pause + 2));
      const drained = channel.drained(abort.signal);
      expect(getEventListeners(abort.signal, "abort")).toHaveLength(1);
      await iterator.next();
      await iterator.next();
      await drained;
      expect(getEventListeners(abort.signal, "abort")).toHaveLength(0);
    }
    channel.push(sampleEvent("runtime.warning", 61));
    channel.push(sampleEvent("runtime.warning", 62));
    const aborted = channel.drained(abort.signal);
    abort.abort();
    await aborted;
    await expect(channel.drained(abort.signal)).resolves.toBeUndefined();
  });

  it("wakes a waiting reader and ends after close", async () => {
    const channel = new EventChannel();
    const read = (async () => {
      const seen: number[] = [];
      for await (const event of channel) seen.push(event.sequence);
      return seen;
    })();
    await new Promise((resolve) => setTimeout(resolve, 5));
    channel.push(sampleEvent("runtime.warning", 1));
    channel.close();
    expect(channel.push(sampleEvent("runtime.warning", 2))).toBe(false);
    expect(await read).toEqual([1]);
  });

  it("keeps no event the host has read: 499 of the 500 read of 600 are collectable while the channel stays open", async () => {
    const channel = new EventChannel(10_000);
    const refs = pushTracked(channel, 600);
    const iterator = channel[Symbol.asyncIterator]();
    for (let i = 0; i < 500; i++) await iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    liveHeap();
    const gone = refs.map((ref) => ref.deref() === undefined);
    // the last one read is still the suspended generator's own; the 100 unread are the channel's
    expect(gone.slice(0, 499).every(Boolean)).toBe(true);
    expect(gone.slice(500).some(Boolean)).toBe(false);
    expect(channel.buffered).toBe(100);
  });
});

/** Weak references to `count` fresh events pushed into `channel` (no local of the test keeps them). */
function pushTracked(channel: EventChannel, count: number): WeakRef<RuntimeEvent>[] {
  const refs: WeakRef<RuntimeEvent>[] = [];
  for (let n = 1; n <= count; n++) {
    const event = sampleEvent("runtime.warning", n);
    channel.push(event);
    refs.push(new WeakRef(event));
  }
  return refs;
}
