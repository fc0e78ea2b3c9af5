import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstream } from "@nats-io/jetstream";
import { Objm } from "@nats-io/obj";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { verifyEvents } from "../../src/verify/index.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { type ClusterAccounts, makeClusterAccounts } from "./support/nats-accounts.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// No shared disk: two nodes, each its own DATA, on a nats-server with the docs' users. Node A runs a Codex session's
// first turn and is SIGKILLed; its DATA is deleted. The next turn, through B, resumes the agent natively from the
// native state A saved in the object store at the turn's end, and the model sees turn 1 again.
const work = mkdtempSync(join(tmpdir(), "cluster-failover-"));
let accounts: ClusterAccounts;
let nats: NatsServer;
let mock: MockModelServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  accounts = makeClusterAccounts(work);
  nats = await startNatsServer({
    config: (port, storeDir) =>
      `listen: "127.0.0.1:${port}"\njetstream { store_dir: "${storeDir}" }\n${accounts.authorization}`,
  });
  mock = await startMockModel();
  cluster = new ClusterNodes(nats.url, 2_000, {
    separateData: true,
    serveArgs: ["--model-url", mock.baseUrl],
    env: { NATS_USER: "node", NATS_PASSWORD: accounts.nodePassword },
  });
  await Promise.all(["a", "b"].map((name) => cluster.start(name)));
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  await mock?.close();
  rmSync(work, { recursive: true, force: true });
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent;
const count = (events: readonly Event[], type: string) => events.filter((e) => e.type === type).length;

it("takes a session over on another node with its own DATA, the agent remembering turn 1", async () => {
  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const watcher = cluster.watch("b", id);
  const marker = `remember-${Date.now()}`;
  expect((await cluster.post("a", `/v1/sessions/${id}/turns`, { text: `mock:text ${marker}` })).status).toBe(
    202,
  );
  await watcher.until((r) => count(r.events<Event>(), "turn.completed") === 1);

  // A saves the session's native state at the turn's end: wait until the object store has it.
  const nc = await connect({ servers: nats.url, user: "node", pass: accounts.nodePassword });
  try {
    const bucket = await new Objm(jetstream(nc)).open("PROVIDER_RUNTIME_native");
    const deadline = Date.now() + 30_000;
    while ((await bucket.info(id)) === null) {
      if (Date.now() > deadline) throw new Error("the native state was never saved");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await nc.close();
  }

  // A dies, and its disk with it.
  await cluster.node("a").stop("SIGKILL");
  const dataA = cluster.dataOf("a");
  rmSync(dataA, { recursive: true, force: true });
  expect(existsSync(join(dataA, "sessions", id))).toBe(false);

  const requestsBefore = mock.requests.length;
  const second = await cluster.post("b", `/v1/sessions/${id}/turns`, {
    text: "mock:text after the failover",
  });
  expect([second.status, second.body]).toEqual([202, { accepted: true }]);
  await watcher.until((r) => count(r.events<Event>(), "turn.completed") === 2);
  await cluster.node("b").cli.waitFor("err", /restored \d+ native state file/, { timeoutMs: 5_000 });
  expect(existsSync(join(cluster.dataOf("b"), "sessions", id))).toBe(true);

  const events = watcher.events<Event>();
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, index) => index + 1));
  expect(verifyEvents(events)).toEqual([]);
  // Resumed natively: the same Codex thread, through thread/resume.
  const threads = events
    .filter((e) => e.type === "thread.started")
    .map((e) => e.providerRefs?.providerThreadId);
  expect(threads).toHaveLength(2);
  expect(threads[1]).toBe(threads[0]);
  // The model, asked for turn 2, is sent turn 1 again: the agent remembers it.
  const asked = mock.requests
    .slice(requestsBefore)
    .map((r) => JSON.stringify(r.body ?? ""))
    .filter((body) => body.includes("after the failover"));
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.some((body) => body.includes(marker))).toBe(true);
}, 240_000);

it("forks a session whose node went away with its disk: the fork made from the object store's state", async () => {
  await cluster.start("a");
  const created = await cluster.post("b", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const parent = String(created.body.id);
  const watcher = cluster.watch("a", parent);
  const alpha = `alpha-${Date.now()}`;
  const beta = `beta-${Date.now()}`;
  for (const [n, word] of [alpha, beta].entries()) {
    expect(
      (await cluster.post("b", `/v1/sessions/${parent}/turns`, { text: `mock:text ${word}` })).status,
    ).toBe(202);
    await watcher.until((r) => count(r.events<Event>(), "turn.completed") === n + 1);
  }
  const firstTurn = watcher.events<Event>().find((e) => e.type === "turn.completed")?.turnId;
  expect(firstTurn).toBeDefined();

  // B goes away (its agent's state saved as it exits), and its disk with it.
  await cluster.node("b").stop("SIGTERM");
  rmSync(cluster.dataOf("b"), { recursive: true, force: true });

  const forked = await cluster.post("a", `/v1/sessions/${parent}/fork`, { afterTurnId: firstTurn });
  expect([forked.status, forked.body.parentId]).toEqual([201, parent]);
  const fork = String(forked.body.id);
  const forkWatcher = cluster.watch("a", fork);
  const requestsBefore = mock.requests.length;
  expect(
    (await cluster.post("a", `/v1/sessions/${fork}/turns`, { text: "mock:text on the fork" })).status,
  ).toBe(202);
  await forkWatcher.until((r) => count(r.events<Event>(), "turn.completed") === 1);
  const events = forkWatcher.events<Event>();
  expect(verifyEvents(events)).toEqual([]);
  expect(events.find((e) => e.type === "session.started")?.payload).toMatchObject({
    forkedFrom: { sessionId: parent, turnId: firstTurn },
  });
  const asked = mock.requests
    .slice(requestsBefore)
    .map((r) => JSON.stringify(r.body ?? ""))
    .filter((body) => body.includes("on the fork"));
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every((body) => body.includes(alpha) && !body.includes(beta))).toBe(true);
}, 240_000);
