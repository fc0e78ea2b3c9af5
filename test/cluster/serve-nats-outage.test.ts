import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { range } from "./support/events.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// NATS itself is killed mid-session under two `serve --nats` nodes (the built CLI): node A runs a real Codex
// app-server waiting for an approval, node B has a client watching the session.
let nats: NatsServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  nats = await startNatsServer();
  cluster = new ClusterNodes(nats.url, 5_000);
  await Promise.all(["a", "b"].map((name) => cluster.start(name)));
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent & { requestId?: string };
type Health = {
  ok: boolean;
  store?: { connected: boolean; buffered?: { events: number }; downSince?: string };
};

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("reports the outage, keeps the agent running, warns the session and publishes what was buffered", async () => {
  const health = async () => (await cluster.node("a").json<Health>("/v1/health", { auth: null })).body;
  expect(await health()).toMatchObject({ ok: true, store: { backend: "jetstream", connected: true } });

  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  const id = String(created.body.id);
  const watcher = cluster.watch("b", id);
  expect(
    (await cluster.post("a", `/v1/sessions/${id}/turns`, { text: "mock:shell run a command" })).status,
  ).toBe(202);
  await watcher.until((reader) => reader.events<Event>().some((event) => event.type === "request.opened"));
  const request = watcher.events<Event>().find((event) => event.type === "request.opened");

  await nats.stop();
  const down = await until(health, (body) => body.store?.connected === false, "health to report the outage");
  expect(down.ok).toBe(false);
  expect(down.store?.downSince).toEqual(expect.any(String));

  // No new session while the registry is out of reach: a 503 that says why.
  const refused = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(refused.status).toBe(503);
  expect(String(refused.body.error)).toMatch(/NATS is unreachable/);

  // The agent goes on while NATS is down: the approval is answered on its node and the turn runs to its end.
  const answered = await cluster.post("a", `/v1/sessions/${id}/requests/${request?.requestId}`, {
    decision: "accept",
  });
  expect(answered.status).toBe(200);
  await until(
    health,
    (body) => (body.store?.buffered?.events ?? 0) >= 10,
    "the finished turn's events to be buffered",
  );

  await nats.restart();
  await until(health, (body) => body.ok && body.store?.buffered?.events === 0, "the buffer to be published");
  // The watcher through B went on after the outage with everything, each event once.
  await watcher.until((reader) => reader.events<Event>().some((event) => event.type === "turn.completed"));
  const events = watcher.events<Event>();
  expect(events.map((event) => event.sequence)).toEqual(range(1, events.length));
  expect(verifyEvents(events)).toEqual([]);
  const warning = events.find((event) => event.type === "runtime.warning");
  expect(warning?.payload).toMatchObject({ detail: { reason: "store-unreachable", node: "a" } });
  expect((warning?.sequence ?? 0) > (request?.sequence ?? 0)).toBe(true);
  expect(events.find((event) => event.type === "turn.completed")?.payload).toMatchObject({
    state: "completed",
  });
  // And the stored stream, read fresh through B, is the same.
  const page = await cluster
    .node("b")
    .json<{ events: Event[] }>(`/v1/sessions/${id}/events?after=0&limit=1000`);
  expect(page.body.events.map((event) => event.eventId)).toEqual(events.map((event) => event.eventId));
}, 180_000);
