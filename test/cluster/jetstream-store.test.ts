import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { JetStreamStore } from "../../src/store/jetstream-store.js";
import type { SessionRecord } from "../../src/store/types.js";
import { range, sequencesOf, sessionEvent, sessionEvents } from "./support/events.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// The SessionStore contract on a real nats-server -js: every store here talks to the same server, as the nodes
// of a cluster do.
let nats: NatsServer;
const stores: JetStreamStore[] = [];

async function openStore(stream = "CONTRACT"): Promise<JetStreamStore> {
  const store = await JetStreamStore.open({ servers: nats.url, stream });
  stores.push(store);
  return store;
}

beforeAll(async () => {
  nats = await startNatsServer();
});

afterAll(async () => {
  for (const store of stores) await store.close().catch(() => {});
  await nats?.dispose();
});

function record(id: string): SessionRecord {
  return {
    id,
    provider: "codex",
    origin: "live",
    createdAt: "2026-12-01T10:00:00.000Z",
    updatedAt: "2026-12-01T10:00:00.000Z",
    state: "starting",
    lastSequence: 0,
    openRequests: 0,
    exited: false,
  };
}

async function collect(iterable: AsyncIterable<RuntimeEvent>, count: number): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of iterable) {
    out.push(event);
    if (out.length >= count) break;
  }
  return out;
}

async function subjectMessages(store: JetStreamStore, sessionId: string): Promise<number> {
  const info = await store.link.jsm.streams.info(store.stream, { subjects_filter: store.subject(sessionId) });
  return info.state.subjects?.[store.subject(sessionId)] ?? 0;
}

describe("JetStreamStore: events", () => {
  it("gives events back exactly as appended: the same JSON text, raw and key order included", async () => {
    const store = await openStore();
    const events = sessionEvents("ses_roundtrip", 40);
    await store.append("ses_roundtrip", events.slice(0, 1));
    await store.append("ses_roundtrip", events.slice(1));
    const back = await store.readEvents("ses_roundtrip", 0, 1000);
    expect(back.map((event) => JSON.stringify(event))).toEqual(events.map((event) => JSON.stringify(event)));
  });

  it("stores an event larger than a NATS message in parts and gives it back whole", async () => {
    const store = await openStore();
    const big = sessionEvent("ses_big", 2, "x".repeat(3 * 1024 * 1024 + 17));
    const events = [sessionEvent("ses_big", 1), big, sessionEvent("ses_big", 3)];
    await store.append("ses_big", events);
    expect(await subjectMessages(store, "ses_big")).toBeGreaterThanOrEqual(5);
    const back = await store.readEvents("ses_big", 0, 10);
    expect(back.map((event) => JSON.stringify(event))).toEqual(events.map((event) => JSON.stringify(event)));
    expect(sequencesOf(await store.readEvents("ses_big", 1, 10))).toEqual([2, 3]);
    expect(sequencesOf(await store.readEvents("ses_big", 2, 10))).toEqual([3]);
  });

  it("reads a page after any sequence, in order, up to the limit, with other sessions interleaved", async () => {
    const store = await openStore();
    const ids = ["ses_page_a", "ses_page_b", "ses_page_c"];
    for (let sequence = 1; sequence <= 120; sequence++)
      for (const id of ids) await store.append(id, [sessionEvent(id, sequence)]);
    for (const after of [0, 1, 2, 37, 64, 100, 119]) {
      expect(sequencesOf(await store.readEvents("ses_page_b", after, 10))).toEqual(
        range(after + 1, Math.min(after + 10, 120)),
      );
    }
    expect(await store.readEvents("ses_page_b", 120, 10)).toEqual([]);
    expect(await store.readEvents("ses_page_none", 0, 10)).toEqual([]);
    expect(sequencesOf(await store.readEvents("ses_page_c", 50, 1000))).toEqual(range(51, 120));
  });

  it("follows: the stored events after `after`, then live ones, each once, until aborted", async () => {
    const store = await openStore();
    const id = "ses_follow";
    await store.append(id, sessionEvents(id, 10));
    const abort = new AbortController();
    const got = collect(store.follow(id, 4, abort.signal), 26);
    for (let sequence = 11; sequence <= 30; sequence++) {
      await store.append(id, [sessionEvent(id, sequence)]);
      if (sequence % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sequencesOf(await got)).toEqual(range(5, 30));
    // A follow that is aborted while waiting for live events returns.
    const idle = new AbortController();
    const waiting = collect(store.follow(id, 30, idle.signal), 1);
    setTimeout(() => idle.abort(), 100);
    expect(await waiting).toEqual([]);
    abort.abort();
  });

  it("stores a retried publish once: the same events appended again, from this node or another", async () => {
    const nodeA = await openStore();
    const nodeB = await openStore();
    const id = "ses_dup";
    const events = sessionEvents(id, 20);
    await nodeA.append(id, events.slice(0, 1));
    await nodeA.append(id, events.slice(1));
    await nodeA.append(id, events.slice(10)); // the same writer retrying
    await nodeB.append(id, events.slice(5)); // another node that thinks they are not stored yet
    // The raw publish JetStream sees on a retry: the same Nats-Msg-Id (here a message of one event: its id),
    // acknowledged as a duplicate and not stored.
    const ack = await nodeA.link.js.publish(nodeA.subject(id), new TextEncoder().encode("again"), {
      msgID: events[0]?.eventId ?? "",
    });
    expect(ack.duplicate).toBe(true);
    await nodeB.append(id, [sessionEvent(id, 21)]);
    await nodeA.append(id, [sessionEvent(id, 21), sessionEvent(id, 22)]);
    expect(await subjectMessages(nodeA, id)).toBe(4);
    const back = await nodeB.readEvents(id, 0, 100);
    expect(sequencesOf(back)).toEqual(range(1, 22));
    expect(back.map((event) => JSON.stringify(event))).toEqual(
      [...events, sessionEvent(id, 21), sessionEvent(id, 22)].map((event) => JSON.stringify(event)),
    );
  });

  it("keeps each session's order while many sessions append at once", async () => {
    const store = await openStore();
    const ids = range(1, 8).map((n) => `ses_order_${n}`);
    await Promise.all(
      ids.map(async (id) => {
        for (let sequence = 1; sequence <= 60; sequence += 3)
          await store.append(id, sessionEvents(id, 3, sequence - 1));
      }),
    );
    for (const id of ids) expect(sequencesOf(await store.readEvents(id, 0, 1000))).toEqual(range(1, 60));
  });
});

describe("JetStreamStore: the registry", () => {
  it("creates, reads, patches and lists session records; a second create of an id is refused", async () => {
    const store = await openStore("REGISTRY");
    await store.createSession(record("ses_reg_1"));
    await store.createSession(record("ses_reg_2"));
    await expect(store.createSession(record("ses_reg_1"))).rejects.toThrow(/exists/);
    await store.updateSession("ses_reg_1", { state: "ready", lastSequence: 7, title: "hello" });
    const expected = {
      ...record("ses_reg_1"),
      state: "ready",
      lastSequence: 7,
      title: "hello",
    };
    // This node sees its patch at once; another once it is written.
    expect(await store.getSession("ses_reg_1")).toEqual(expected);
    const other = await openStore("REGISTRY");
    await store.flushed();
    expect(await other.getSession("ses_reg_1")).toEqual(expected);
    expect(await store.getSession("ses_reg_none")).toBeUndefined();
    expect((await store.listSessions()).map((session) => session.id)).toEqual(["ses_reg_1", "ses_reg_2"]);
  });

  it("loses no field when two nodes patch one record at once (compare-and-set on the revision)", async () => {
    const nodeA = await openStore("REGISTRY");
    const nodeB = await openStore("REGISTRY");
    await nodeA.createSession(record("ses_reg_cas"));
    await Promise.all([
      ...range(1, 15).map((n) => nodeA.updateSession("ses_reg_cas", { lastSequence: n })),
      ...range(1, 15).map((n) => nodeB.updateSession("ses_reg_cas", { openRequests: n })),
      nodeB.updateSession("ses_reg_cas", { owner: { node: "b", leaseUntil: "2026-12-01T10:01:00.000Z" } }),
    ]);
    // Patches are written behind; flushed() waits for them.
    await Promise.all([nodeA.flushed(), nodeB.flushed()]);
    const after = await nodeA.getSession("ses_reg_cas");
    expect(after?.owner).toEqual({ node: "b", leaseUntil: "2026-12-01T10:01:00.000Z" });
    expect(after?.lastSequence).toBe(15);
    expect(after?.openRequests).toBe(15);
  });
});

describe("JetStreamStore: cluster leases", () => {
  const t = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, seconds)).toISOString();

  it("lets one node own a session until its lease ends; then another may claim it", async () => {
    const nodeA = await openStore("LEASES");
    const nodeB = await openStore("LEASES");
    await nodeA.createSession(record("ses_lease"));
    expect((await nodeA.claimSession("ses_lease", "a", t(10), t(0)))?.owner).toEqual({
      node: "a",
      leaseUntil: t(10),
    });
    expect(await nodeB.claimSession("ses_lease", "b", t(15), t(5))).toBeUndefined();
    expect((await nodeA.claimSession("ses_lease", "a", t(20), t(5)))?.owner).toEqual({
      node: "a",
      leaseUntil: t(20),
    });
    expect((await nodeB.claimSession("ses_lease", "b", t(40), t(21)))?.owner).toEqual({
      node: "b",
      leaseUntil: t(40),
    });
    expect(await nodeA.claimSession("ses_lease", "a", t(50), t(22))).toBeUndefined();
    await nodeA.releaseSession("ses_lease", "a", t(23)); // not a's any more: nothing changes
    expect((await nodeA.getSession("ses_lease"))?.owner).toEqual({ node: "b", leaseUntil: t(40) });
    await nodeB.releaseSession("ses_lease", "b", t(24));
    expect((await nodeA.getSession("ses_lease"))?.owner).toEqual({ node: "b", leaseUntil: t(24) });
    expect(await nodeB.claimSession("ses_none", "b", t(30), t(0))).toBeUndefined();
  });

  it("gives an expired session to exactly one of two nodes claiming it at once", async () => {
    const nodeA = await openStore("LEASES");
    const nodeB = await openStore("LEASES");
    for (const n of range(1, 10)) {
      const id = `ses_race_${n}`;
      await nodeA.createSession({ ...record(id), owner: { node: "dead", leaseUntil: t(1) } });
      const [a, b] = await Promise.all([
        nodeA.claimSession(id, "a", t(30), t(10)),
        nodeB.claimSession(id, "b", t(30), t(10)),
      ]);
      expect([a, b].filter((claimed) => claimed !== undefined)).toHaveLength(1);
      expect((await nodeA.getSession(id))?.owner?.node).toBe(a === undefined ? "b" : "a");
    }
  });
});
