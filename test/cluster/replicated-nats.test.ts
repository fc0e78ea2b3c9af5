import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { type ClusterAccounts, makeClusterAccounts } from "./support/nats-accounts.js";
import { type NatsCluster, startNatsCluster, untilJetStreamReady } from "./support/nats-cluster.js";

// Three nats-servers in one JetStream cluster (routes on loopback), the stream, registry and object store with three
// replicas (`--nats-replicas 3`), two `serve --nats` nodes given every server's URL. The server leading the stream
// is SIGKILLed while a long Codex turn streams: the turn completes, and the stored stream has every event once, in
// order, and passes `verify`.
const work = mkdtempSync(join(tmpdir(), "cluster-replicas-"));
let accounts: ClusterAccounts;
let nats: NatsCluster;
let cluster: ClusterNodes;

beforeAll(async () => {
  accounts = makeClusterAccounts(work);
  nats = await startNatsCluster(accounts.authorization);
  await untilJetStreamReady(nats.urls, { user: "node", pass: accounts.nodePassword });
  cluster = new ClusterNodes(nats.urls, 3_000, {
    separateData: true,
    natsArgs: ["--nats-replicas", "3"],
    env: { NATS_USER: "node", NATS_PASSWORD: accounts.nodePassword },
  });
  await cluster.start("a");
  await cluster.start("b");
}, 180_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  rmSync(work, { recursive: true, force: true });
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent;
const count = (events: readonly Event[], type: string) => events.filter((e) => e.type === type).length;

/** The turn has ended and the session is ready again after it. */
function readyAfterTurn(events: readonly Event[]): boolean {
  const end = events.findLastIndex((e) => e.type === "turn.completed");
  return (
    end >= 0 &&
    events
      .slice(end + 1)
      .some((e) => e.type === "session.state.changed" && (e.payload as { state?: string }).state === "ready")
  );
}

it("loses nothing when one of three nats-servers dies during a turn", async () => {
  const auth = { user: "node", pass: accounts.nodePassword };
  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const watcher = cluster.watch("b", id);
  expect(
    (await cluster.post("b", `/v1/sessions/${id}/turns`, { text: "mock:long a long answer" })).status,
  ).toBe(202);
  await watcher.until((r) => count(r.events<Event>(), "content.delta") >= 200, 90_000);

  const leader = await nats.leaderOf("PROVIDER_RUNTIME", auth);
  expect(leader).toMatch(/^n[123]$/);
  const victim = nats.servers[Number(leader?.slice(1)) - 1];
  await victim?.stop();
  const deltasAtKill = count(watcher.events<Event>(), "content.delta");

  // The turn's end, the session ready again and the thread idle (its state change may come last): the stream
  // as it stands then passes verify.
  await watcher.until(
    (r) => readyAfterTurn(r.events<Event>()) && verifyEvents(r.events<Event>()).length === 0,
    180_000,
  );
  const events = watcher.events<Event>();
  expect(count(events, "content.delta")).toBeGreaterThan(deltasAtKill);
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, index) => index + 1));
  expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
  expect(verifyEvents(events)).toEqual([]);
  expect(await nats.leaderOf("PROVIDER_RUNTIME", auth)).not.toBe(leader);

  // What the two survivors store, read through the other node from the start, is the same stream.
  let stored: Event[] = [];
  for (let after = 0; ; ) {
    const page = await cluster
      .node("a")
      .json<{ events: Event[] }>(`/v1/sessions/${id}/events?after=${after}&limit=1000`);
    stored = stored.concat(page.body.events);
    const tail = page.body.events.at(-1);
    if (tail === undefined) break;
    after = tail.sequence;
  }
  expect(stored.slice(0, events.length).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
  expect(verifyEvents(stored)).toEqual([]);
}, 300_000);
