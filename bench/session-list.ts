import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { RuntimeEvent } from "../src/contracts/events.js";
import { EventBuilder } from "../src/kit/event-builder.js";
import { openSqliteStore, STORE_FILE } from "../src/store/sqlite-store.js";
import type { SessionQuery } from "../src/store/types.js";

/**
 * `GET /v1/sessions` as the store answers it — the newest page, a filtered page, a search by a word of the
 * prompts — over `sessions` stored sessions with `prompts` prompts each, timed against a plain query of the same
 * rows on the same file (the FTS5 match alone, the newest rows alone) in the same run.
 */
export interface SessionListBench {
  sessions: number;
  prompts: number;
  rows: Array<{ name: string; oursMs: number; plainMs: number; found: number }>;
  heapMB: number;
}

const WORDS = 1_000;

function promptEvents(sessionId: string, first: number, count: number): RuntimeEvent[] {
  const builder = new EventBuilder({ sessionId, provider: "codex", clock: () => "2026-12-03T00:00:00.000Z" });
  const events: RuntimeEvent[] = [];
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const text = `please look at module${n % 97} and fix word${n % WORDS} then report ${n}`;
    events.push(
      builder.emit(
        "item.completed",
        { itemType: "user_message", status: "completed", details: { text } },
        { itemId: `item_${n}` },
      ) as RuntimeEvent,
    );
  }
  return events;
}

/** The fastest of `trials` runs, in ms; a run's promise is awaited (better-sqlite3's settle in one microtask). */
export async function fastestMs(trials: number, run: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < trials; i++) {
    const start = process.hrtime.bigint();
    await run();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

export async function sessionListBench(
  sessions: number,
  promptsEach: number,
  trials: number,
): Promise<SessionListBench> {
  const dir = await mkdtemp(join(tmpdir(), "bench-session-list-"));
  const store = await openSqliteStore({ dataDir: dir });
  try {
    const batch: Promise<void>[] = [];
    for (let s = 0; s < sessions; s++) {
      const id = `ses_bench_${String(s).padStart(6, "0")}`;
      const createdAt = new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
      batch.push(
        store.createSession({
          id,
          provider: s % 3 === 0 ? "claude" : "codex",
          origin: "live",
          createdAt,
          updatedAt: createdAt,
          state: "stopped",
          lastSequence: 0,
          openRequests: 0,
          exited: true,
          title: `session ${s} about module${s % 97}`,
          ...(s % 10 === 0 ? { archived: true } : {}),
        }),
      );
      batch.push(store.append(id, promptEvents(id, s * promptsEach, promptsEach)));
      if (batch.length >= 2_000) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
    const db = new Database(join(dir, STORE_FILE), { readonly: true });
    const plainNewest = db.prepare("SELECT * FROM sessions ORDER BY created_at DESC, id DESC LIMIT 100");
    const plainProvider = db.prepare(
      "SELECT * FROM sessions WHERE provider = 'claude' ORDER BY created_at DESC, id DESC LIMIT 100",
    );
    const plainMatch = db.prepare(
      "SELECT DISTINCT t.session_id FROM session_search JOIN session_texts t ON t.id = session_search.rowid WHERE session_search MATCH ? LIMIT 100",
    );
    const cases: Array<{ name: string; query: SessionQuery; plain: () => unknown[] }> = [
      { name: "newest page (100)", query: { limit: 100 }, plain: () => plainNewest.all() },
      {
        name: "provider filter (100)",
        query: { limit: 100, provider: "claude" },
        plain: () => plainProvider.all(),
      },
      {
        name: "search q=word417",
        query: { limit: 100, q: "word417" },
        plain: () => plainMatch.all('"word417"*'),
      },
      {
        name: "search q=module5 word5",
        query: { limit: 100, q: "module5 word5" },
        plain: () => plainMatch.all('"module5"* AND "word5"*'),
      },
    ];
    const rows: SessionListBench["rows"] = [];
    for (const c of cases) {
      let found = 0;
      await store.querySessions(c.query);
      c.plain();
      const oursMs = await fastestMs(trials, () =>
        store.querySessions(c.query).then((page) => {
          found = page.sessions.length;
        }),
      );
      const plainMs = await fastestMs(trials, c.plain);
      rows.push({ name: c.name, oursMs, plainMs, found });
    }
    db.close();
    return {
      sessions,
      prompts: sessions * promptsEach,
      rows,
      heapMB: process.memoryUsage().heapUsed / 1024 ** 2,
    };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
