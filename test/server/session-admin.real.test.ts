import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { MessageAuth } from "../../src/store/jetstream/message-auth.js";
import { JetStreamStore } from "../../src/store/jetstream-store.js";
import { type NatsServer, startNatsServer } from "../cluster/support/nats-server.js";
import { until } from "../support/until.js";
import { ServeProcess } from "./support/serve-process.js";

/**
 * Issue #33: rename, archive, search and purge, through HTTP, against the embedded SQLite store and against a
 * real `nats-server -js` (`serve --nats`). The sessions are real Codex app-server agents on the mock model.
 */

interface Event {
  sequence: number;
  type: string;
  payload: Record<string, unknown>;
}
interface Summary {
  id: string;
  title?: string;
  archived?: boolean;
  provider: string;
}
interface Page {
  sessions: Summary[];
  next?: string;
}

const TOKEN = "admin-token";
let mock: MockModelServer;
let nats: NatsServer;
const secretDir = mkdtempSync(join(tmpdir(), "admin-secret-"));
const secret = randomBytes(32);
const secretFile = join(secretDir, "cluster-secret");
writeFileSync(secretFile, secret, { mode: 0o600 });

beforeAll(async () => {
  mock = await startMockModel();
  nats = await startNatsServer();
}, 60_000);
afterAll(async () => {
  await mock.close();
  await nats.dispose();
  rmSync(secretDir, { recursive: true, force: true });
});
afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

async function events(server: ServeProcess, id: string): Promise<Event[]> {
  const { body } = await server.json<{ events: Event[] }>(`/v1/sessions/${id}/events?limit=1000`);
  return body.events;
}

async function turnEnded(server: ServeProcess, id: string, text: string): Promise<void> {
  const sent = await server.fetch(`/v1/sessions/${id}/turns`, { method: "POST", json: { text } });
  expect(sent.status).toBe(202);
  for (let waited = 0; waited < 120_000; waited += 200) {
    const stored = await events(server, id);
    const end = stored.find((e) => e.type === "turn.completed")?.sequence;
    if (
      end !== undefined &&
      stored.some(
        (e) => e.type === "session.state.changed" && e.sequence > end && e.payload.state === "ready",
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the turn on ${id} did not end\n${server.stderr}`);
}

const ids = (page: Page) => page.sessions.map((s) => s.id);

describe("rename, archive, search and purge over HTTP", () => {
  for (const backend of ["sqlite", "jetstream"] as const) {
    it(backend, async () => {
      const tag = `${backend}${Date.now()}`;
      const stream = `ADMIN_${tag}`;
      const cluster =
        backend === "jetstream"
          ? ["--nats", nats.url, "--nats-stream", stream, "--node", "a", "--cluster-secret-file", secretFile]
          : [];
      const server = await ServeProcess.start({
        token: TOKEN,
        extra: ["--model-url", mock.baseUrl, ...cluster],
      });
      const create = async () =>
        (await server.json<Summary>("/v1/sessions", { method: "POST", json: { provider: "codex" } })).body.id;
      const first = await create();
      const second = await create();
      await turnEnded(server, first, `mock:text zebra${tag} crossing`);
      await turnEnded(server, second, `mock:text yak${tag} grazing`);

      // search by a word of a prompt (and a prefix of one); no match is an empty list
      const list = async (query: string) => {
        const answer = await server.json<Page>(`/v1/sessions?${query}`);
        expect([query, answer.status, answer.body]).toMatchObject([
          query,
          200,
          { sessions: expect.any(Array) },
        ]);
        return answer.body;
      };
      expect(ids(await list(`q=zebra${tag}`))).toEqual([first]);
      expect(ids(await list(`q=yak${tag.slice(0, 6)}`))).toEqual([second]);
      expect(ids(await list(`q=crossing%20yak${tag}`))).toEqual([]);
      expect(ids(await list("q=nosuchword"))).toEqual([]);

      // newest first, a page at a time
      const paged = await list("limit=1&provider=codex");
      expect(ids(paged)).toEqual([second]);
      expect(ids(await list(`limit=1&provider=codex&cursor=${paged.next}`))).toEqual([first]);
      expect((await server.fetch("/v1/sessions?cursor=garbage")).status).toBe(400);

      // rename: the title lists and searches, and it is in the stream
      const renamed = await server.json<Summary>(`/v1/sessions/${first}`, {
        method: "PATCH",
        json: { title: `Lighthouse ${tag}` },
      });
      expect([renamed.status, renamed.body.title]).toEqual([200, `Lighthouse ${tag}`]);
      expect(ids(await list(`q=lighthouse`))).toEqual([first]);
      // the running agent's stream carries it once the writer has stored it
      expect(
        await until(async () =>
          (await events(server, first)).some(
            (e) => e.type === "thread.metadata.updated" && e.payload.name === `Lighthouse ${tag}`,
          ),
        ),
      ).toBe(true);
      expect(
        (await server.fetch(`/v1/sessions/${first}`, { method: "PATCH", json: { title: 3 } })).status,
      ).toBe(400);
      // one PATCH with a setting and a title: the agent is configured, then the session renamed
      const both = await server.json<Summary>(`/v1/sessions/${first}`, {
        method: "PATCH",
        json: { effort: "high", title: `Beacon ${tag}` },
      });
      expect([both.status, both.body.title]).toEqual([200, `Beacon ${tag}`]);
      expect(
        await until(async () =>
          (await events(server, first)).some(
            (e) =>
              e.type === "session.configured" &&
              (e.payload.config as Record<string, unknown> | undefined)?.effort === "high",
          ),
        ),
      ).toBe(true);
      // a value the agent does not offer refuses the whole PATCH: the title stays
      const refused = await server.fetch(`/v1/sessions/${first}`, {
        method: "PATCH",
        json: { model: "no-such-model", title: "Never" },
      });
      expect(refused.status).toBe(400);
      expect(ids(await list("q=never"))).toEqual([]);

      // archive: gone from the default list, there with archived=1
      const archived = await server.json<Summary>(`/v1/sessions/${second}`, {
        method: "PATCH",
        json: { archived: true },
      });
      expect(archived.body.archived).toBe(true);
      expect(ids(await list(""))).toEqual([first]);
      expect(ids(await list("archived=1"))).toEqual([second]);
      expect(ids(await list(`archived=1&q=yak${tag}`))).toEqual([second]);

      // purge: 404 afterwards, nothing of it under DATA/ nor in the store
      const purged = await server.fetch(`/v1/sessions/${first}?purge=1`, { method: "DELETE" });
      expect(purged.status).toBe(200);
      expect((await server.fetch(`/v1/sessions/${first}`)).status).toBe(404);
      expect((await server.fetch(`/v1/sessions/${first}/events`)).status).toBe(404);
      expect(ids(await list(`q=zebra${tag}`))).toEqual([]);
      const named = (dir: string): string[] =>
        existsSync(dir)
          ? readdirSync(dir, { recursive: true })
              .map(String)
              .filter((p) => p.includes(first))
          : [];
      expect(named(server.data)).toEqual([]);
      expect(existsSync(join(server.data, "sessions", second))).toBe(true);
      if (backend === "sqlite") {
        const db = new Database(join(server.data, "store.db"), { readonly: true });
        const left = ["sessions:id", "streams:session_id", "session_texts:session_id"].map((pair) => {
          const [table, column] = pair.split(":");
          return db.prepare(`SELECT count(*) FROM ${table} WHERE ${column} = ?`).pluck().get(first);
        });
        const mentions = db
          .prepare("SELECT count(*) FROM events WHERE body LIKE ?")
          .pluck()
          .get(`%${first}%`);
        db.close();
        expect([...left, mentions]).toEqual([0, 0, 0, 0]);
      } else {
        const store = await JetStreamStore.open({ servers: nats.url, stream, auth: new MessageAuth(secret) });
        try {
          expect(await store.getSession(first)).toBeUndefined();
          expect(await store.readEvents(first, 0, 10)).toEqual([]);
          expect((await store.readEvents(second, 0, 10)).length).toBeGreaterThan(0);
        } finally {
          await store.close();
        }
      }
      if (backend === "sqlite") {
        // a provider that cannot fork: 422 with the reason, no session made
        const sdk = (
          await server.json<Summary>("/v1/sessions", { method: "POST", json: { provider: "codex-sdk" } })
        ).body.id;
        const refused = await server.json<{ error: string; reason: string }>(`/v1/sessions/${sdk}/fork`, {
          method: "POST",
          json: {},
        });
        expect(refused.status).toBe(422);
        expect(refused.body.error).toBe("unsupported");
        expect(refused.body.reason).toContain("codex exec");
        expect((await list("provider=codex-sdk")).sessions).toHaveLength(1);
      }
      expect(await server.stop()).toBe(143);
    }, 300_000);
  }
});
