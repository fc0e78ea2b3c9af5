import { randomBytes } from "node:crypto";
import { MessageAuth } from "../src/store/jetstream/message-auth.js";
import { JetStreamStore } from "../src/store/jetstream-store.js";
import type { SessionQuery } from "../src/store/types.js";
import { startNatsServer } from "../test/cluster/support/nats-server.js";
import { fastestMs } from "./session-list.js";

/**
 * `GET /v1/sessions` against the JetStream registry (`serve --nats`): the newest page and a search by a word of
 * the prompts over `sessions` records, each holding its prompts as the registry keeps them, on a real
 * `nats-server -js`. The floor, in the same run: one registry read (a KV get, one loopback round trip to NATS).
 */
export interface JetStreamListBench {
  sessions: number;
  prompts: number;
  /** One KV get of one record: the round trip every registry read costs at least. */
  getMs: number;
  rows: Array<{ name: string; ms: number; found: number }>;
  heapMB: number;
}

const WORDS = 1_000;

export async function jetStreamListBench(
  sessions: number,
  promptsEach: number,
  trials: number,
): Promise<JetStreamListBench> {
  const nats = await startNatsServer();
  const store = await JetStreamStore.open({
    servers: nats.url,
    stream: "BENCH_LIST",
    auth: new MessageAuth(randomBytes(32)),
  });
  try {
    const batch: Promise<void>[] = [];
    for (let s = 0; s < sessions; s++) {
      const createdAt = new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
      const prompts = Array.from({ length: promptsEach }, (_, i) => {
        const n = s * promptsEach + i;
        return `please look at module${n % 97} and fix word${n % WORDS} then report ${n}`;
      });
      batch.push(
        store.createSession({
          id: `ses_bench_${String(s).padStart(6, "0")}`,
          provider: s % 3 === 0 ? "claude" : "codex",
          origin: "live",
          createdAt,
          updatedAt: createdAt,
          state: "stopped",
          lastSequence: 0,
          openRequests: 0,
          exited: true,
          title: `session ${s} about module${s % 97}`,
          prompts,
        }),
      );
      if (batch.length >= 500) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
    const getMs = await fastestMs(trials * 20, () => store.getSession("ses_bench_000000"));
    const cases: Array<{ name: string; query: SessionQuery }> = [
      { name: "newest page (100)", query: { limit: 100 } },
      { name: "search q=word417", query: { limit: 100, q: "word417" } },
    ];
    const rows: JetStreamListBench["rows"] = [];
    for (const c of cases) {
      let found = 0;
      const ms = await fastestMs(trials, async () => {
        found = (await store.querySessions(c.query)).sessions.length;
      });
      rows.push({ name: c.name, ms, found });
    }
    return {
      sessions,
      prompts: sessions * promptsEach,
      getMs,
      rows,
      heapMB: process.memoryUsage().heapUsed / 1024 ** 2,
    };
  } finally {
    await store.close();
    await nats.dispose();
  }
}
