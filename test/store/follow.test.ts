import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import type { SqliteStore } from "../../src/store/sqlite-store.js";
import { deltaEvents, lines, tempStore } from "./store-fixture.js";

/** Collects a follow until it yields `until`, then aborts it; `pause` runs after each event (a slow reader). */
async function collect(
  store: SqliteStore,
  sessionId: string,
  after: number,
  until: number,
  pause?: (event: RuntimeEvent) => Promise<void>,
): Promise<RuntimeEvent[]> {
  const controller = new AbortController();
  const seen: RuntimeEvent[] = [];
  for await (const event of store.follow(sessionId, after, controller.signal)) {
    seen.push(event);
    if (event.sequence >= until) controller.abort();
    else await pause?.(event);
  }
  return seen;
}

/** Appends `from..to` in chunks of 1..9 events, yielding to the event loop between some of them. */
async function produce(store: SqliteStore, sessionId: string, from: number, to: number): Promise<void> {
  let next = from;
  let round = 0;
  while (next <= to) {
    const size = Math.min(1 + (round % 9), to - next + 1);
    const appended = store.append(sessionId, deltaEvents(sessionId, next, size));
    if (round % 3 === 0) await appended;
    else if (round % 3 === 1) await new Promise((resolve) => setImmediate(resolve));
    next += size;
    round++;
  }
}

const sequences = (events: readonly RuntimeEvent[]) => events.map((event) => event.sequence);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

it("follow yields the stored events, then live ones, each once and in order, while appends race with it", async () => {
  const { store, dispose } = await tempStore({ synchronous: "normal" });
  try {
    await store.append("ses_a", deltaEvents("ses_a", 1, 100));
    const followers: Promise<RuntimeEvent[]>[] = [collect(store, "ses_a", 0, 3_000)];
    const producing = produce(store, "ses_a", 101, 3_000);
    // more followers joining while the producer runs, from different points
    for (const after of [0, 50, 200, 1_000]) {
      await sleep(5);
      followers.push(collect(store, "ses_a", after, 3_000));
    }
    await producing;
    const results = await Promise.all(followers);
    const afters = [0, 0, 50, 200, 1_000];
    for (const [index, seen] of results.entries())
      expect(sequences(seen)).toEqual(range((afters[index] ?? 0) + 1, 3_000));
    expect(lines(results[0] ?? [])).toEqual(lines(deltaEvents("ses_a", 1, 3_000)));
    expect(store.followStats().followers).toBe(0);
  } finally {
    await dispose();
  }
});

it("a slow follower holds at most its buffer and catches up from the file, missing nothing", async () => {
  const { store, dispose } = await tempStore({ synchronous: "normal", followBufferEvents: 16 });
  try {
    let maxHeld = 0;
    const slow = collect(store, "ses_a", 0, 5_000, async (event) => {
      maxHeld = Math.max(maxHeld, store.followStats().maxBuffered);
      if (event.sequence % 50 === 0) await sleep(2);
    });
    await produce(store, "ses_a", 1, 5_000);
    const seen = await slow;
    expect(sequences(seen)).toEqual(range(1, 5_000));
    expect(maxHeld).toBeGreaterThan(0); // it did take live events from the buffer
    expect(maxHeld).toBeLessThanOrEqual(16);
    expect(store.followStats().overflows).toBeGreaterThan(0); // and it did fall behind
  } finally {
    await dispose();
  }
});

it("a follow waiting for events ends when its signal aborts, and when the store closes", async () => {
  const { store, dispose } = await tempStore();
  try {
    await store.append("ses_a", deltaEvents("ses_a", 1, 2));
    const controller = new AbortController();
    const iterator = store.follow("ses_a", 0, controller.signal)[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.sequence).toBe(1);
    expect((await iterator.next()).value?.sequence).toBe(2);
    const waiting = iterator.next();
    setTimeout(() => controller.abort(), 20);
    expect((await waiting).done).toBe(true);

    const second = store.follow("ses_a", 2, new AbortController().signal)[Symbol.asyncIterator]();
    const live = second.next();
    await store.append("ses_a", deltaEvents("ses_a", 3, 1));
    expect((await live).value?.sequence).toBe(3);
    const ended = second.next();
    await store.close();
    expect((await ended).done).toBe(true);
  } finally {
    await dispose();
  }
});
