import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { type JwtDeployment, makeJwtDeployment } from "./support/nats-jwt.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// A nats-server in operator mode (JWTs signed with nkeys made now), three nodes logging in with the user's `.creds`
// file (`--nats-creds`): a session created through A, driven through B, watched through C.
const work = mkdtempSync(join(tmpdir(), "cluster-jwt-"));
let deployment: JwtDeployment;
let nats: NatsServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  deployment = makeJwtDeployment(work);
  nats = await startNatsServer({
    config: (port, storeDir) =>
      `listen: "127.0.0.1:${port}"\njetstream { store_dir: "${storeDir}" }\n${deployment.config}`,
  });
  cluster = new ClusterNodes(nats.url, 3_000, {
    separateData: true,
    natsArgs: ["--nats-creds", deployment.credsFile],
  });
  await Promise.all(["a", "b", "c"].map((name) => cluster.start(name)));
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  rmSync(work, { recursive: true, force: true });
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent;

it("serves a session over three nodes that log in with a .creds file", async () => {
  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const watcher = cluster.watch("c", id);
  expect(
    (await cluster.post("b", `/v1/sessions/${id}/turns`, { text: "mock:text with a creds file" })).status,
  ).toBe(202);
  // the turn's end, and the stream as it stands then passing verify (the thread's idle state may come last)
  await watcher.until(
    (r) =>
      r.events<Event>().some((e) => e.type === "turn.completed") &&
      verifyEvents(r.events<Event>()).length === 0,
  );
  const events = watcher.events<Event>();
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, index) => index + 1));
  const seed = /SU[A-Z2-7]{56}/;
  for (const name of ["a", "b", "c"]) expect(cluster.node(name).cli.stderr).not.toMatch(seed);
}, 180_000);
