import { afterAll, beforeAll, expect, it } from "vitest";
import { MessageAuth } from "../../src/store/jetstream/message-auth.js";
import { type ForgedReport, JetStreamStore } from "../../src/store/jetstream-store.js";
import type { SessionRecord } from "../../src/store/types.js";
import { range, sequencesOf, sessionEvent, sessionEvents } from "./support/events.js";
import { type NatsServer, startNatsServer } from "./support/nats-server.js";

// The JetStream store with a cluster secret, against a real nats-server, and messages written without it on the
// same subjects and keys: what fails the check is reported and never read back, and the writer goes on after it.
let nats: NatsServer;
const stores: JetStreamStore[] = [];
const reports: ForgedReport[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
});

afterAll(async () => {
  for (const store of stores) await store.close().catch(() => {});
  await nats?.dispose();
});

async function openStore(auth: MessageAuth | undefined): Promise<JetStreamStore> {
  const store = await JetStreamStore.open({
    servers: nats.url,
    stream: "AUTH",
    ...(auth === undefined ? {} : { auth }),
    onForged: (report) => reports.push(report),
  });
  stores.push(store);
  return store;
}

const record = (id: string): SessionRecord => ({
  id,
  provider: "codex",
  origin: "live",
  createdAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
  state: "starting",
  lastSequence: 0,
  openRequests: 0,
  exited: false,
});

it("reads and continues past events and records written without the secret", async () => {
  const node = await openStore(new MessageAuth(Buffer.alloc(32, 1)));
  const intruder = await openStore(new MessageAuth(Buffer.alloc(32, 2)));
  const id = "ses_auth";
  await node.createSession(record(id));
  await node.append(id, sessionEvents(id, 5));

  // A message with another secret's tag claiming sequences up to 1,000, at the subject's end.
  await intruder.append(id, [sessionEvent(id, 1_000, "all tests pass")]);
  // The node goes on after its own last message, not after the forged one's headers.
  await node.append(id, sessionEvents(id, 5, 5));
  const events = await node.readEvents(id, 0, 100);
  expect(sequencesOf(events)).toEqual(range(1, 10));
  expect(JSON.stringify(events)).not.toContain("all tests pass");
  expect(sequencesOf(await node.readEvents(id, 7, 100))).toEqual(range(8, 10));
  expect(reports.some((r) => r.kind === "event" && r.sessionId === id)).toBe(true);

  // A follower from the start sees the same ten, once.
  const abort = new AbortController();
  const followed: number[] = [];
  for await (const event of node.follow(id, 0, abort.signal)) {
    followed.push(event.sequence);
    if (followed.length === 10) abort.abort();
  }
  expect(followed).toEqual(range(1, 10));

  // A record written with another secret is no session.
  await intruder.createSession({ ...record("ses_forged"), cwd: "/" });
  expect(await node.getSession("ses_forged")).toBeUndefined();
  expect((await node.listSessions()).map((r) => r.id)).toEqual([id]);
  expect(reports.some((r) => r.kind === "registry" && r.sessionId === "ses_forged")).toBe(true);
}, 60_000);
