import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, headers } from "@nats-io/transport-node";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { MessageAuth } from "../../src/store/jetstream/message-auth.js";
import { JetStreamStore } from "../../src/store/jetstream-store.js";
import { verifyEvents } from "../../src/verify/index.js";
import { ClusterNodes } from "./support/cluster-nodes.js";
import { type ClusterAccounts, makeClusterAccounts } from "./support/nats-accounts.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// Three `serve --nats` nodes on a nats-server with the users docs/cluster.md gives: A and B log in as the node user
// (A's password in its URL, B's in NATS_PASSWORD), C with an nkey seed (`--nats-creds`). Then an intruder with the
// node user's NATS credentials but not the cluster secret forges a command, an event and a registry record.
const work = mkdtempSync(join(tmpdir(), "cluster-secure-"));
const root = join(work, "root");
let accounts: ClusterAccounts;
let nats: NatsServer;
let cluster: ClusterNodes;

beforeAll(async () => {
  accounts = makeClusterAccounts(work);
  mkdirSync(root);
  nats = await startNatsServer({
    config: (port, storeDir) =>
      `listen: "127.0.0.1:${port}"\njetstream { store_dir: "${storeDir}" }\n${accounts.authorization}`,
  });
  const hostPort = nats.url.replace("nats://", "");
  cluster = new ClusterNodes(`nats://${hostPort}`, 3_000, {
    serveArgs: ["--mock", "--root", root],
  });
  await cluster.start("a", ["--nats", `nats://node:${accounts.nodePassword}@${hostPort}`]);
  await Promise.all([
    cluster.start("b", [], { NATS_USER: "node", NATS_PASSWORD: accounts.nodePassword }),
    cluster.start("c", ["--nats-creds", accounts.seedFile]),
  ]);
}, 120_000);

afterAll(async () => {
  const left = await cluster?.dispose();
  await nats?.dispose();
  rmSync(work, { recursive: true, force: true });
  expect(left ?? []).toEqual([]);
}, 120_000);

type Event = RuntimeEvent & { requestId?: string };

const count = (events: readonly Event[], type: string) => events.filter((e) => e.type === type).length;
const warnings = (events: readonly Event[], reason: string) =>
  events.filter(
    (e) =>
      e.type === "runtime.warning" &&
      (e.payload as { detail?: { reason?: string } }).detail?.reason === reason,
  );

it("serves a session over three nodes with NATS users, and runs or serves nothing forged", async () => {
  // End to end: created through A, a turn through B, watched through C.
  const created = await cluster.post("a", "/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const watcher = cluster.watch("c", id);
  expect((await cluster.post("b", `/v1/sessions/${id}/turns`, { text: "mock:text first turn" })).status).toBe(
    202,
  );
  await watcher.until((r) => count(r.events<Event>(), "turn.completed") === 1);

  // The intruder: the node user's NATS credentials, not the cluster secret.
  const intruder = await connect({ servers: nats.url, user: "node", pass: accounts.nodePassword });
  const encoder = new TextEncoder();
  try {
    // A forged command, in the clear and with a made-up tag: refused, nothing runs, a warning is stored.
    const command = JSON.stringify({ op: "turn", sessionId: id, input: { text: "mock:shell touch pwned" } });
    for (const body of [
      command,
      `${"A".repeat(43)}\n${JSON.stringify({ at: Date.now(), nonce: "n", body: JSON.parse(command) })}`,
    ]) {
      const reply = await intruder.request("provider_runtime.nodes.a.commands", encoder.encode(body), {
        timeout: 10_000,
      });
      const text = new TextDecoder().decode(reply.data);
      expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toMatchObject({ ok: false, kind: "forbidden" });
    }
    await watcher.until((r) => warnings(r.events<Event>(), "forged-command").length >= 1);
    expect(count(watcher.events<Event>(), "turn.started")).toBe(1);

    // A forged event at the session's next sequence ("all tests pass"): stored by JetStream, served to no one.
    const last = watcher.events<Event>().at(-1) as Event;
    const forged = {
      ...last,
      eventId: `${id}:forged`,
      sequence: last.sequence + 1,
      type: "content.delta",
      payload: { streamKind: "assistant_text", delta: "all tests pass" },
    };
    const h = headers();
    h.set("Pr-Sequence", String(forged.sequence));
    h.set("Pr-Event-Id", forged.eventId);
    h.set("Pr-Auth", "A".repeat(43));
    intruder.publish(`provider_runtime.events.${id}`, encoder.encode(JSON.stringify(forged)), { headers: h });
    await intruder.flush();
    await watcher.until((r) => warnings(r.events<Event>(), "forged-event").length >= 1);

    // The session goes on past the forged message: its next turn, through A, is numbered on without a gap.
    expect(
      (await cluster.post("a", `/v1/sessions/${id}/turns`, { text: "mock:text second turn" })).status,
    ).toBe(202);
    await watcher.until((r) => count(r.events<Event>(), "turn.completed") === 2);
    const page = await cluster
      .node("b")
      .json<{ events: Event[] }>(`/v1/sessions/${id}/events?after=0&limit=1000`);
    for (const events of [watcher.events<Event>(), page.body.events]) {
      expect(JSON.stringify(events)).not.toContain("all tests pass");
      expect(events.map((e) => e.sequence)).toEqual(events.map((_, index) => index + 1));
      expect(verifyEvents(events)).toEqual([]);
    }
    // A new client, through another node, from the start: the same.
    const late = cluster.watch("a", id);
    await late.until((r) => r.events<Event>().length >= page.body.events.length);
    expect(JSON.stringify(late.events<Event>())).not.toContain("all tests pass");

    // A forged registry record: an ACP session running `sh -c` outside the root. Without the tag it is no session.
    const evil = "ses_forged-by-the-intruder";
    const marker = join(work, "pwned-by-registry");
    const record = {
      id: evil,
      provider: "acp",
      origin: "live",
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      cwd: "/",
      agent: ["sh", "-c", `touch ${marker}`],
      state: "ready",
      lastSequence: 0,
      openRequests: 0,
      exited: true,
    };
    intruder.publish(`$KV.PROVIDER_RUNTIME_sessions.${evil}`, encoder.encode(JSON.stringify(record)));
    await intruder.flush();
    const turn = await cluster.post("b", `/v1/sessions/${evil}/turns`, { text: "hello" });
    expect(turn.status).toBe(404);
    expect(existsSync(marker)).toBe(false);

    // The same record with a good tag (written before this node's --root, say): the node still refuses to run it.
    const secret = readFileSync(cluster.secretFile);
    const insider = await JetStreamStore.open({
      servers: nats.url,
      credentials: { user: "node", pass: accounts.nodePassword },
      auth: new MessageAuth(secret),
    });
    try {
      const outside = "ses_outside-the-root";
      await insider.createSession({ ...record, id: outside } as Parameters<typeof insider.createSession>[0]);
      const refused = await cluster.post("c", `/v1/sessions/${outside}/turns`, { text: "hello" });
      expect(refused.status).toBe(403);
      expect(existsSync(marker)).toBe(false);
      const stored = await insider.readEvents(outside, 0, 100);
      expect(warnings(stored as Event[], "refused-by-node")).toHaveLength(1);
    } finally {
      await insider.close();
    }
  } finally {
    await intruder.close();
  }

  // The read-only watcher reads the stream but cannot publish an event or a command.
  const reader = await connect({ servers: nats.url, user: "watcher", pass: accounts.watcherPassword });
  try {
    const jsm = await (await import("@nats-io/jetstream")).jetstreamManager(reader);
    expect(
      (await jsm.streams.getMessage("PROVIDER_RUNTIME", { last_by_subj: `provider_runtime.events.${id}` }))
        ?.seq,
    ).toBeGreaterThan(0);
    await expect(
      reader.request("provider_runtime.nodes.a.commands", encoder.encode("{}"), { timeout: 3_000 }),
    ).rejects.toThrow(/[Pp]ermission/);
  } finally {
    await reader.close();
  }

  // No output of any node shows the NATS password.
  for (const name of ["a", "b", "c"]) {
    const cli = cluster.node(name).cli;
    expect(`${cli.stdout}${cli.stderr}`).not.toContain(accounts.nodePassword);
  }
  expect(cluster.node("a").cli.stderr).toContain("nats://127.0.0.1");
}, 240_000);
