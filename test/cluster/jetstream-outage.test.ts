import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { JetStreamStore } from "../../src/store/jetstream-store.js";
import { range, sequencesOf, sessionEvent } from "./support/events.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// NATS itself goes away mid-session: the nats-server process is killed (SIGKILL) while events are appended and
// started again on the same port and store dir.
let nats: NatsServer;
const stores: JetStreamStore[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
});

afterAll(async () => {
  for (const store of stores) await store.close().catch(() => {});
  await nats?.dispose();
});

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it("buffers what is appended while NATS is down, reports it, and stores every event once, in order, after", async () => {
  const writer = await JetStreamStore.open({ servers: nats.url, stream: "OUTAGE" });
  const reader = await JetStreamStore.open({ servers: nats.url, stream: "OUTAGE" });
  stores.push(writer, reader);
  const ids = ["ses_outage_a", "ses_outage_b"];
  const record = {
    id: "ses_outage_a",
    provider: "codex",
    origin: "live" as const,
    createdAt: "2026-12-01T10:00:00.000Z",
    updatedAt: "2026-12-01T10:00:00.000Z",
    state: "running" as const,
    lastSequence: 0,
    openRequests: 0,
    exited: false,
  };
  await writer.createSession(record);
  const health: boolean[] = [];
  writer.onHealthChange((connected) => health.push(connected));

  // A follower that lives through the outage.
  const abort = new AbortController();
  const followed: RuntimeEvent[] = [];
  const following = (async () => {
    for await (const event of reader.follow("ses_outage_a", 0, abort.signal)) {
      followed.push(event);
      if (event.sequence === 300) break;
    }
  })();

  let sequence = 0;
  const appendSome = async (count: number) => {
    for (let n = 0; n < count; n++) {
      sequence++;
      for (const id of ids) await writer.append(id, [sessionEvent(id, sequence)]);
    }
  };
  await appendSome(100);
  expect(writer.health()).toMatchObject({ connected: true, buffered: { events: 0, bytes: 0 } });

  // Killed mid-append: appends go on while it is down and resolve without waiting for NATS.
  const killing = nats.stop();
  await appendSome(50);
  await killing;
  await until(() => !writer.health().connected, "the store to notice the outage");
  const startedDown = Date.now();
  await appendSome(100);
  expect(Date.now() - startedDown).toBeLessThan(5_000);
  const down = writer.health();
  expect(down.connected).toBe(false);
  expect(down.downSince).toEqual(expect.any(String));
  expect(down.buffered?.events).toBeGreaterThan(0);
  expect(down.buffered?.bytes).toBeGreaterThan(0);

  // The registry during the outage: a record this node knows is read from memory, a patch is kept for later.
  await writer.updateSession("ses_outage_a", { lastSequence: 250, openRequests: 1 });
  expect(await writer.getSession("ses_outage_a")).toMatchObject({ lastSequence: 250, openRequests: 1 });
  await expect(writer.getSession("ses_outage_unknown")).rejects.toThrow(/unreachable/);

  await nats.restart();
  await appendSome(50);
  await writer.flushed();
  await until(() => writer.health().connected, "the store to report NATS back");
  expect(writer.health().buffered).toEqual({ events: 0, bytes: 0 });
  expect(health).toEqual([false, true]);

  for (const id of ids) expect(sequencesOf(await reader.readEvents(id, 0, 1000))).toEqual(range(1, 300));
  await until(
    async () => (await reader.getSession("ses_outage_a"))?.lastSequence === 250,
    "the deferred patch",
  );
  expect(await reader.getSession("ses_outage_a")).toMatchObject({ state: "running", openRequests: 1 });
  for (const id of ids) {
    const back = await reader.readEvents(id, 0, 1000);
    expect(new Set(back.map((event) => event.eventId)).size).toBe(300);
  }
  await following;
  abort.abort();
  expect(sequencesOf(followed)).toEqual(range(1, 300));
});

it("holds the buffer to its limit: appends wait for room instead of growing it", async () => {
  const store = await JetStreamStore.open({
    servers: nats.url,
    stream: "OUTAGE_LIMIT",
    bufferLimits: { events: 20, bytes: 1024 * 1024 },
  });
  stores.push(store);
  await store.append("ses_limit", [sessionEvent("ses_limit", 1)]);
  await nats.stop();
  await until(() => !store.health().connected, "the store to notice the outage");
  let accepted = 1;
  const appending = (async () => {
    for (let sequence = 2; sequence <= 60; sequence++) {
      await store.append("ses_limit", [sessionEvent("ses_limit", sequence)]);
      accepted = sequence;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(store.health().buffered?.events).toBeLessThanOrEqual(20);
  expect(accepted).toBeLessThan(60);
  await nats.restart();
  await appending;
  await store.flushed();
  expect(sequencesOf(await store.readEvents("ses_limit", 0, 100))).toEqual(range(1, 60));
});
