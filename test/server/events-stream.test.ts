import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { type SessionServer, startSessionServer } from "../../src/server/session-server.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { SessionStore } from "../../src/store/types.js";
import { verifyEvents } from "../../src/verify/index.js";
import { SseReader } from "./support/sse-reader.js";

/** The events route in-process (real SQLite store, real codex app-server, mock model), heartbeats made quick. */

const TOKEN = "events-token";
const auth = { authorization: `Bearer ${TOKEN}` };
let mock: MockModelServer;
let store: SessionStore;
let server: SessionServer;
let sessionId = "";
let dataDir = "";

const post = (path: string, json: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
const completedTurns = (reader: SseReader) =>
  reader.events().filter((e) => e.type === "turn.completed").length;

beforeAll(async () => {
  mock = await startMockModel();
  dataDir = mkdtempSync(join(tmpdir(), "serve-events-"));
  store = await openSqliteStore({ dataDir });
  server = await startSessionServer({
    store,
    dataDir,
    token: TOKEN,
    host: "127.0.0.1",
    port: 0,
    version: "test",
    heartbeatMs: 100,
    modelBaseUrl: async () => mock.baseUrl,
  });
  const created = await post("/v1/sessions", { provider: "codex" });
  expect(created.status).toBe(201);
  sessionId = ((await created.json()) as { id: string }).id;
});

afterAll(async () => {
  await server.close();
  await mock.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /v1/sessions/:id/events", () => {
  it("SSE: stored events, then live ones, each `id: <sequence>`, each already in the store when it arrives", async () => {
    const live = new SseReader(`${server.url}/v1/sessions/${sessionId}/events`, auth);
    const seenInStore: boolean[] = [];
    expect((await post(`/v1/sessions/${sessionId}/turns`, { text: "mock:text first" })).status).toBe(202);
    await live.until((r) => completedTurns(r) === 1);
    expect(live.status).toBe(200);
    expect(live.contentType).toMatch(/text\/event-stream/);
    for (const message of live.messages.slice(0, 20)) {
      const sequence = Number(message.id);
      const stored = await store.readEvents(sessionId, sequence - 1, 1);
      seenInStore.push(stored[0]?.sequence === sequence && JSON.stringify(stored[0]) === message.data);
    }
    expect(seenInStore.every(Boolean)).toBe(true);
    const events = live.events();
    expect(live.messages.map((m) => Number(m.id))).toEqual(events.map((e) => e.sequence));
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));

    // a second client joins late: it gets the whole stored stream first, then the live turn with the first one
    const late = new SseReader(`${server.url}/v1/sessions/${sessionId}/events`, auth);
    await late.until((r) => r.messages.length === live.messages.length);
    expect((await post(`/v1/sessions/${sessionId}/turns`, { text: "mock:text second" })).status).toBe(202);
    await late.until((r) => completedTurns(r) === 2);
    await live.until((r) => completedTurns(r) === 2);
    expect(late.events().map((e) => e.sequence)).toEqual(
      live
        .events()
        .map((e) => e.sequence)
        .slice(0, late.messages.length),
    );
    live.close();
    late.close();
  });

  it("SSE resumes after Last-Event-ID (over ?after), or after ?after=N: exactly the missing events", async () => {
    const page = (await (
      await fetch(`${server.url}/v1/sessions/${sessionId}/events?limit=1000`, { headers: auth })
    ).json()) as {
      events: RuntimeEvent[];
    };
    const all = page.events;
    expect(all.length).toBeGreaterThan(10);
    const byHeader = new SseReader(`${server.url}/v1/sessions/${sessionId}/events?after=1`, {
      ...auth,
      "last-event-id": "7",
    });
    const byQuery = new SseReader(`${server.url}/v1/sessions/${sessionId}/events?after=7`, auth);
    for (const reader of [byHeader, byQuery]) {
      await reader.until((r) => r.messages.length === all.length - 7);
      expect(reader.events().map((e) => e.sequence)).toEqual(all.slice(7).map((e) => e.sequence));
      expect(reader.messages.map((m) => m.data)).toEqual(all.slice(7).map((e) => JSON.stringify(e)));
      reader.close();
    }
  });

  it("SSE sends a heartbeat comment while the session is quiet", async () => {
    const reader = new SseReader(`${server.url}/v1/sessions/${sessionId}/events?after=100000`, auth);
    await reader.until((r) => r.comments.filter((c) => c === "heartbeat").length >= 2, 5_000);
    expect(reader.messages).toEqual([]);
    reader.close();
  });

  it("a JSON page: `limit` events after `after`, and `next` to go on from", async () => {
    const url = `${server.url}/v1/sessions/${sessionId}/events?after=2&limit=3`;
    const first = (await (await fetch(url, { headers: auth })).json()) as {
      events: RuntimeEvent[];
      next: number;
    };
    expect(first.events.map((e) => e.sequence)).toEqual([3, 4, 5]);
    expect(first.next).toBe(5);
    const end = (await (
      await fetch(`${server.url}/v1/sessions/${sessionId}/events?after=100000`, { headers: auth })
    ).json()) as { events: RuntimeEvent[]; next: number };
    expect(end).toEqual({ events: [], next: 100000 });
  });

  it("a sequence past 2^53 is a 400 naming it, in the query or in Last-Event-ID", async () => {
    const query = await fetch(`${server.url}/v1/sessions/${sessionId}/events?after=${"9".repeat(30)}`, {
      headers: auth,
    });
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ field: "after" });
    const header = await fetch(`${server.url}/v1/sessions/${sessionId}/events`, {
      headers: { ...auth, "last-event-id": "9".repeat(30) },
    });
    expect(header.status).toBe(400);
    expect(await header.json()).toMatchObject({ field: "last-event-id" });
  });

  it("an imported history is read like any session but takes no turn", async () => {
    const now = new Date().toISOString();
    await store.createSession({
      id: "ses_imported",
      provider: "claude-code",
      origin: "import",
      createdAt: now,
      updatedAt: now,
      state: "stopped",
      lastSequence: 0,
      openRequests: 0,
      exited: true,
    });
    const detail = await fetch(`${server.url}/v1/sessions/ses_imported`, { headers: auth });
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({ session: { id: "ses_imported", origin: "import" } });
    const turn = await post("/v1/sessions/ses_imported/turns", { text: "hello" });
    expect(turn.status).toBe(409);
    expect(await turn.json()).toMatchObject({ error: expect.stringMatching(/imported/) });
    expect((await post("/v1/sessions/ses_imported/interrupt", {})).status).toBe(409);
  });

  it("after DELETE the stored stream ends with session.exited and passes verify", async () => {
    const reader = new SseReader(`${server.url}/v1/sessions/${sessionId}/events`, auth);
    const stopped = await fetch(`${server.url}/v1/sessions/${sessionId}`, {
      method: "DELETE",
      headers: auth,
    });
    expect(stopped.status).toBe(200);
    await reader.until((r) => r.events().some((e) => e.type === "session.exited"));
    const stored = await store.readEvents(sessionId, 0, 1000);
    expect(stored.at(-1)?.type).toBe("session.exited");
    expect(verifyEvents(stored)).toEqual([]);
    expect(reader.events().length).toBe(stored.length);
    reader.close();
  });
});
