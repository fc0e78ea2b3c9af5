import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { JetStreamStore } from "../../src/store/jetstream-store.js";
import { verifyEvents } from "../../src/verify/index.js";
import type { SseReader } from "../server/support/sse-reader.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { range } from "./support/events.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// Three `serve --nats` processes (the built CLI) on one real nats-server, a real Codex app-server per session
// against each node's mock model. Sessions are created through node A, watched through B, approved through C;
// then A is SIGKILLed and each session's next turn completes on another node.
let nats: NatsServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  nats = await startNatsServer();
  cluster = new ClusterNodes(nats.url);
  await Promise.all(["a", "b", "c"].map((name) => cluster.start(name)));
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent & { requestId?: string };

const count = (reader: SseReader, type: string) =>
  reader.events<Event>().filter((e) => e.type === type).length;

function readyAfterLastTurn(reader: SseReader): boolean {
  const events = reader.events<Event>();
  const end = events.findLastIndex((e) => e.type === "turn.completed");
  return events
    .slice(end + 1)
    .some((e) => e.type === "session.state.changed" && (e.payload as { state?: string }).state === "ready");
}

function expectSound(events: readonly Event[]): void {
  expect(events.map((event) => event.sequence)).toEqual(range(1, events.length));
  expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
  expect(verifyEvents(events)).toEqual([]);
}

it("runs sessions across three nodes and moves them to a live node when theirs is killed", async () => {
  const ids: string[] = [];
  for (let n = 0; n < 2; n++) {
    const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
    expect(created.status).toBe(201);
    ids.push(String(created.body.id));
  }
  const watchers = ids.map((id) => cluster.watch("b", id));

  // A turn sent through B and C runs on A (the owner); its approval is answered through C.
  for (const [index, id] of ids.entries()) {
    const via = index === 0 ? "b" : "c";
    expect(
      (await cluster.post(via, `/v1/sessions/${id}/turns`, { text: "mock:shell run a command" })).status,
    ).toBe(202);
    const watcher = watchers[index] as SseReader;
    await watcher.until((reader) => count(reader, "request.opened") === 1);
    const request = watcher.events<Event>().find((event) => event.type === "request.opened");
    const answered = await cluster.post("c", `/v1/sessions/${id}/requests/${request?.requestId}`, {
      decision: "accept",
    });
    expect(answered.status).toBe(200);
    await watcher.until((reader) => count(reader, "turn.completed") === 1);
    const output = watcher
      .events<Event>()
      .find((event) => event.type === "item.completed" && event.payload.itemType === "command_execution");
    expect(output).toBeDefined();
  }
  // A second answer to the resolved request, through B: refused by the owner as already resolved.
  const first = watchers[0]?.events<Event>().find((event) => event.type === "request.opened");
  expect(
    (await cluster.post("b", `/v1/sessions/${ids[0]}/requests/${first?.requestId}`, { decision: "accept" }))
      .status,
  ).toBe(409);

  const observer = await JetStreamStore.open({ servers: nats.url });
  try {
    for (const id of ids) expect((await observer.getSession(id))?.owner?.node).toBe("a");

    // Hostile input on a node's command subject (anyone on the NATS account can publish there): garbage, a deep
    // nesting, a well-formed command without the cluster secret's tag. Each is refused with a reply; the node goes on.
    const subject = `${observer.subjectPrefix}.nodes.b.commands`;
    const ask = async (body: string) => {
      const reply = await observer.link.nc.request(subject, new TextEncoder().encode(body), {
        timeout: 10_000,
      });
      const text = new TextDecoder().decode(reply.data);
      return JSON.parse(text.slice(text.indexOf("\n") + 1)) as { ok: boolean; kind?: string };
    };
    expect(await ask("not json")).toMatchObject({ ok: false, kind: "forbidden" });
    expect(await ask(`${"[".repeat(200_000)}${"]".repeat(200_000)}`)).toMatchObject({
      ok: false,
      kind: "forbidden",
    });
    expect(await ask(JSON.stringify({ op: "stop", sessionId: "ses_none" }))).toMatchObject({
      ok: false,
      kind: "forbidden",
    });
    expect((await cluster.node("b").json("/v1/health", { auth: null })).body).toMatchObject({ ok: true });

    // A dies. Its sessions' next turns go through B and C: each waits out A's lease, is taken over, closed and
    // resumed natively there.
    await cluster.node("a").stop("SIGKILL");
    const turns = await Promise.all(
      ids.map((id, index) =>
        cluster.post(index === 0 ? "b" : "c", `/v1/sessions/${id}/turns`, {
          text: "mock:text after the failover",
        }),
      ),
    );
    expect(turns.map((turn) => turn.status)).toEqual([202, 202]);
    for (const [index, id] of ids.entries()) {
      const watcher = watchers[index] as SseReader;
      // the turn's end, and the session back to ready after it (the stream's next events, maybe a later chunk)
      await watcher.until((reader) => count(reader, "turn.completed") === 2 && readyAfterLastTurn(reader));
      expect((await observer.getSession(id))?.owner?.node).toBe(index === 0 ? "b" : "c");
      const events = watcher.events<Event>();
      expectSound(events);
      // The crash was closed (session.exited of A's run) before the resumed run went on, same session id.
      const exits = events.filter((event) => event.type === "session.exited");
      expect(exits[0]?.payload).toMatchObject({ reason: "the server stopped without closing the session" });
      expect(events.every((event) => event.sessionId === id)).toBe(true);
      // Resumed natively: the same Codex thread, through thread/resume, after the crash was closed.
      const threads = events
        .filter((event) => event.type === "thread.started")
        .map((event) => event.providerRefs);
      expect(threads).toHaveLength(2);
      expect(threads[1]?.providerThreadId).toBe(threads[0]?.providerThreadId);
      const resumedAt = events.findIndex(
        (event) =>
          event.type === "session.started" &&
          (event.payload as { resume?: { method?: string } }).resume?.method === "thread/resume",
      );
      expect(resumedAt).toBeGreaterThan(events.indexOf(exits[0] as Event));
      // Read again through C from the start, as JSON pages: the same stream.
      const page = await cluster
        .node("c")
        .json<{ events: Event[] }>(`/v1/sessions/${id}/events?after=0&limit=1000`);
      expect(page.body.events.map((event) => event.eventId)).toEqual(events.map((event) => event.eventId));
      // A client reconnecting through B with Last-Event-ID gets exactly what follows.
      const resumed = cluster.watch("b", id, 5);
      await resumed.until((reader) => reader.messages.length >= events.length - 5);
      expect(resumed.events<Event>().map((event) => event.sequence)).toEqual(range(6, events.length));
      resumed.close();
    }
  } finally {
    await observer.close();
  }
}, 240_000);
