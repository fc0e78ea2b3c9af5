import { describe, expect, it } from "vitest";
import { sampleEvent } from "../test-support/sample-events.js";
import { EventChannel } from "./event-channel.js";

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
});
