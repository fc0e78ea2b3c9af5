import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SessionSummary } from "../../src/api/schemas.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { type SessionServer, startSessionServer } from "../../src/server/session-server.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { SseReader } from "./support/sse-reader.js";

/** `GET /v1/sessions` as SSE in-process: a real SQLite store, the real codex app-server, the mock model. */

const TOKEN = "session-list-token";
const auth = { authorization: `Bearer ${TOKEN}` };
let mock: MockModelServer;
let server: SessionServer;
let dataDir = "";

const post = (path: string, json: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(json),
  });

/** The list as a subscriber holds it: the snapshot, with each later summary put in place. */
function listOf(reader: SseReader): Map<string, SessionSummary> {
  const list = new Map<string, SessionSummary>();
  for (const message of reader.messages) {
    const data = JSON.parse(message.data) as { sessions?: SessionSummary[]; id?: string };
    if (message.event === "snapshot") {
      list.clear();
      for (const s of data.sessions ?? []) list.set(s.id, s);
    } else if (message.event === "session") list.set((data as SessionSummary).id, data as SessionSummary);
    else if (message.event === "removed") list.delete(data.id as string);
  }
  return list;
}

beforeAll(async () => {
  mock = await startMockModel();
  dataDir = mkdtempSync(join(tmpdir(), "serve-list-"));
  server = await startSessionServer({
    store: await openSqliteStore({ dataDir }),
    dataDir,
    token: TOKEN,
    host: "127.0.0.1",
    port: 0,
    version: "test",
    heartbeatMs: 100,
    modelBaseUrl: async () => mock.baseUrl,
  });
});

afterAll(async () => {
  await server.close();
  await mock.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("needs the token like every other route", async () => {
  const response = await fetch(`${server.url}/v1/sessions`, { headers: { accept: "text/event-stream" } });
  expect(response.status).toBe(401);
});

it("pushes the list: a snapshot, the new session, `waiting` with its open request, `ready` once answered (declined: nothing runs)", async () => {
  const reader = new SseReader(`${server.url}/v1/sessions`, auth);
  await reader.until((r) => r.messages.some((m) => m.event === "snapshot"));
  expect(reader.status).toBe(200);
  expect(reader.contentType).toMatch(/text\/event-stream/);
  const created = await post("/v1/sessions", { provider: "codex" });
  const id = ((await created.json()) as { id: string }).id;
  await reader.until((r) => listOf(r).get(id)?.state === "ready");
  expect((await post(`/v1/sessions/${id}/turns`, { text: "mock:shell run a command" })).status).toBe(202);
  await reader.until((r) => listOf(r).get(id)?.title === "mock:shell run a command");
  await reader.until((r) => listOf(r).get(id)?.openRequests === 1, 90_000);
  expect(listOf(reader).get(id)?.state).toBe("waiting");
  const detail = (await (await fetch(`${server.url}/v1/sessions/${id}`, { headers: auth })).json()) as {
    view: { requests: Array<{ requestId: string; status: string }> };
  };
  const open = detail.view.requests.find((r) => r.status === "open");
  expect((await post(`/v1/sessions/${id}/requests/${open?.requestId}`, { decision: "decline" })).status).toBe(
    200,
  );
  await reader.until(
    (r) => listOf(r).get(id)?.openRequests === 0 && listOf(r).get(id)?.state === "ready",
    90_000,
  );
  expect(reader.comments).toContain("heartbeat");
  reader.close();
});
