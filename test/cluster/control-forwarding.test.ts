import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { HOLD_RELEASE_FILE } from "../../src/mock-model/index.js";
import type { SseReader } from "../server/support/sse-reader.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// The command surface across a cluster (the built CLI, a real nats-server, a real Codex app-server): settings,
// steering and queueing sent through another node than the owner travel to it by NATS, and a refusal comes back
// with its status (422 unsupported, 400 with the field).
let nats: NatsServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  nats = await startNatsServer();
  cluster = new ClusterNodes(nats.url);
  await Promise.all(["a", "b"].map((name) => cluster.start(name)));
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent & { requestId?: string };
const count = (reader: SseReader, type: string) =>
  reader.events<Event>().filter((e) => e.type === type).length;

it("PATCH, steer and queue through a node that does not run the agent; refusals keep their status", async () => {
  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const watcher = cluster.watch("b", id);
  const b = cluster.node("b");

  const patched = await b.fetch(`/v1/sessions/${id}`, {
    method: "PATCH",
    json: { mode: "plan", effort: "low" },
  });
  expect(patched.status).toBe(200);
  const badModel = await b.fetch(`/v1/sessions/${id}`, { method: "PATCH", json: { model: "no-such-model" } });
  expect([badModel.status, ((await badModel.json()) as { field?: string }).field]).toEqual([400, "model"]);

  expect(
    (await cluster.post("b", `/v1/sessions/${id}/turns`, { text: "mock:shell run a command" })).status,
  ).toBe(202);
  await watcher.until((reader) => count(reader, "request.opened") === 1);
  const steered = await cluster.post("b", `/v1/sessions/${id}/turns`, {
    text: "mock:text steered through b",
    delivery: "steer",
  });
  expect(steered.status).toBe(202);
  const queued = await cluster.post("b", `/v1/sessions/${id}/turns`, {
    text: "mock:text queued through b",
    delivery: "queue",
  });
  expect(queued.status).toBe(202);
  expect((await cluster.post("b", `/v1/sessions/${id}/turns`, { text: "mock:text refused" })).status).toBe(
    409,
  );
  const request = watcher.events<Event>().find((event) => event.type === "request.opened");
  expect(
    (await cluster.post("b", `/v1/sessions/${id}/requests/${request?.requestId}`, { decision: "accept" }))
      .status,
  ).toBe(200);
  await watcher.until((reader) => count(reader, "turn.completed") === 2);
  const events = watcher.events<Event>();
  expect(
    events.some(
      (e) => e.type === "session.configured" && JSON.stringify(e.payload).includes('"effort":"low"'),
    ),
  ).toBe(true);
  const turnOf = (text: string) =>
    events.find(
      (e) =>
        e.type === "item.completed" &&
        e.payload.itemType === "user_message" &&
        JSON.stringify(e.payload).includes(text),
    )?.turnId;
  expect(turnOf("steered through b")).toBe(turnOf("run a command"));
  expect(turnOf("queued through b")).not.toBe(turnOf("run a command"));

  // exec cannot steer: the owner's 422 comes back through the other node
  const exec = await cluster.post("a", "/v1/sessions", { provider: "codex-sdk" });
  const execId = String(exec.body.id);
  const execWatcher = cluster.watch("b", execId);
  // the hold scenario's command keeps exec's turn running until the test releases it
  expect(
    (await cluster.post("b", `/v1/sessions/${execId}/turns`, { text: "mock:hold keep going" })).status,
  ).toBe(202);
  await execWatcher.until((reader) =>
    reader
      .events<Event>()
      .some((e) => e.type === "item.started" && e.payload.itemType === "command_execution"),
  );
  const refused = await cluster.post("b", `/v1/sessions/${execId}/turns`, { text: "x", delivery: "steer" });
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({ error: "unsupported", reason: expect.stringContaining("codex-sdk") });
  await writeFile(join(String(exec.body.cwd), HOLD_RELEASE_FILE), "");
  await execWatcher.until((reader) => count(reader, "turn.completed") === 1);
}, 180_000);
