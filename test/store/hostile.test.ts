import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { deltaEvent, tempStore } from "./store-fixture.js";

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

it("a 50 MB event is stored once and comes back whole", async () => {
  const { store, dispose } = await tempStore({ synchronous: "normal" });
  try {
    const big = "x".repeat(50 * 1024 * 1024);
    const record = { method: "item/completed", params: { output: big } };
    // two events of the one native record: the 50 MB raw is stored once
    const events = [deltaEvent("ses_big", 1, record), deltaEvent("ses_big", 2, record)];
    await store.append("ses_big", events);
    const back = await store.readEvents("ses_big", 0, 10);
    expect(back).toHaveLength(2);
    expect(JSON.stringify(back[1])).toBe(JSON.stringify(events[1]));
    expect(store.storedBytes().raws).toBeLessThan(51 * 1024 * 1024);
    expect(store.storedBytes().raws).toBeGreaterThan(50 * 1024 * 1024);
  } finally {
    await dispose();
  }
});

it("a deeply nested event round-trips; one too deep to serialize fails its own append, not the store", async () => {
  const { store, dispose } = await tempStore({ synchronous: "normal" });
  try {
    const deep = deltaEvent("ses_deep", 1, { value: nested(2_000) });
    await store.append("ses_deep", [deep]);
    expect(JSON.stringify((await store.readEvents("ses_deep", 0, 1))[0])).toBe(JSON.stringify(deep));

    const tooDeep = deltaEvent("ses_deep", 2, { value: nested(1_000_000) });
    const results = await Promise.allSettled([
      store.append("ses_deep", [tooDeep]),
      store.append("ses_other", [deltaEvent("ses_other", 1)]),
    ]);
    expect(results[0]?.status).toBe("rejected");
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain("cannot be serialized");
    expect(results[1]?.status).toBe("fulfilled");
    // the session goes on at the sequence it was at
    await store.append("ses_deep", [deltaEvent("ses_deep", 2)]);
    expect((await store.readEvents("ses_deep", 0, 10)).map((e: RuntimeEvent) => e.sequence)).toEqual([1, 2]);
  } finally {
    await dispose();
  }
});
