// The SQLite store's write rate: events/s through `append` (sessions appending concurrently, in small chunks as
// drivers do, each chunk awaited) against SQLite's own rate for the same rows: the rows the store writes (event
// JSON without raw, each distinct raw once), inserted by plain prepared INSERTs in one transaction.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RuntimeEvent } from "../src/contracts/events.js";
import { encodeEvents } from "../src/store/event-codec.js";
import { loadSqlite, openDatabase } from "../src/store/sqlite-module.js";
import { configure, migrate } from "../src/store/sqlite-schema.js";
import { openSqliteStore } from "../src/store/sqlite-store.js";

export interface StoreRun {
  synchronous: "full" | "normal";
  events: number;
  appendPerSecond: number;
  commits: number;
  insertPerSecond: number;
  /** Bytes of the events with raw inline / bytes the store wrote. */
  smaller: number;
}

const FIXTURES = new URL("../test/fixtures/", import.meta.url).pathname;

function goldenLines(): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync(FIXTURES, { recursive: true, withFileTypes: true }).sort((a, b) =>
    join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)),
  ))
    if (entry.isFile() && entry.name.endsWith(".expected.jsonl"))
      for (const line of readFileSync(join(entry.parentPath, entry.name), "utf8").split("\n"))
        if (line.length > 0) lines.push(line);
  return lines;
}

/** `sessions` streams of the golden events, renumbered; each event parsed on its own, as if off the wire. */
function sessionsOf(lines: readonly string[], sessions: number, perSession: number): RuntimeEvent[][] {
  return Array.from({ length: sessions }, (_, s) =>
    Array.from({ length: perSession }, (_, i) => {
      const event = JSON.parse(lines[(s * 997 + i) % lines.length] as string) as RuntimeEvent;
      event.sessionId = `ses_bench_${s}` as RuntimeEvent["sessionId"];
      event.sequence = i + 1;
      event.eventId = `ses_bench_${s}:${i + 1}` as RuntimeEvent["eventId"];
      return event;
    }),
  );
}

async function appendRun(streams: RuntimeEvent[][], chunk: number, synchronous: "full" | "normal") {
  const dir = await mkdtemp(join(tmpdir(), "provider-runtime-bench-store-"));
  try {
    const store = await openSqliteStore({ dataDir: dir, synchronous });
    const started = performance.now();
    await Promise.all(
      streams.map(async (events) => {
        const sessionId = events[0]?.sessionId as string;
        for (let at = 0; at < events.length; at += chunk)
          await store.append(sessionId, events.slice(at, at + chunk));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const bytes = store.storedBytes();
    const commits = store.commits;
    await store.close();
    return { seconds, commits, storedBytes: bytes.events + bytes.raws };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The floor: the store's own rows, pre-encoded, through plain prepared INSERTs in one transaction. */
async function insertRun(streams: RuntimeEvent[][], synchronous: "full" | "normal") {
  const encoded = streams.map((events) => encodeEvents(events));
  const dir = await mkdtemp(join(tmpdir(), "provider-runtime-bench-insert-"));
  try {
    const db = openDatabase(await loadSqlite(), join(dir, "store.db"));
    configure(db, synchronous);
    migrate(db);
    const insertStream = db.prepare("INSERT INTO streams (sid, session_id) VALUES (?, ?)");
    const insertRaw = db.prepare("INSERT INTO raws (id, sid, body) VALUES (?, ?, ?)");
    const insertEvent = db.prepare("INSERT INTO events (sid, sequence, raw_id, body) VALUES (?, ?, ?, ?)");
    // which raw row each event refers to, worked out before timing
    let rawId = 0;
    const rows = encoded.map((events) => {
      const ids = new Map<string, number>();
      return events.map((event) => {
        if (event.raw === undefined) return { event, rawId: null, newRaw: false };
        const known = ids.get(event.raw.hash);
        if (known !== undefined) return { event, rawId: known, newRaw: false };
        ids.set(event.raw.hash, ++rawId);
        return { event, rawId, newRaw: true };
      });
    });
    const started = performance.now();
    db.transaction(() => {
      rows.forEach((events, s) => {
        insertStream.run(s + 1, `ses_bench_${s}`);
        for (const { event, rawId, newRaw } of events) {
          if (newRaw && event.raw !== undefined) insertRaw.run(rawId, s + 1, event.raw.json);
          insertEvent.run(s + 1, event.sequence, rawId, event.body);
        }
      });
    })();
    const seconds = (performance.now() - started) / 1000;
    db.close();
    return { seconds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function storeBench(options: {
  events: number;
  sessions: number;
  chunk: number;
  trials: number;
  synchronous: "full" | "normal";
}): Promise<StoreRun> {
  const lines = goldenLines();
  const perSession = Math.max(1, Math.floor(options.events / options.sessions));
  const streams = sessionsOf(lines, options.sessions, perSession);
  const events = perSession * options.sessions;
  const inlineBytes = streams.reduce(
    (sum, stream) => sum + stream.reduce((n, event) => n + Buffer.byteLength(JSON.stringify(event)), 0),
    0,
  );
  await appendRun(sessionsOf(lines, 4, 2_000), options.chunk, options.synchronous); // warm-up
  let append = Number.POSITIVE_INFINITY;
  let insert = Number.POSITIVE_INFINITY;
  let commits = 0;
  let storedBytes = 0;
  for (let trial = 0; trial < options.trials; trial++) {
    const run = await appendRun(streams, options.chunk, options.synchronous);
    if (run.seconds < append) {
      append = run.seconds;
      commits = run.commits;
    }
    storedBytes = run.storedBytes;
    insert = Math.min(insert, (await insertRun(streams, options.synchronous)).seconds);
  }
  return {
    synchronous: options.synchronous,
    events,
    appendPerSecond: events / append,
    commits,
    insertPerSecond: events / insert,
    smaller: inlineBytes / storedBytes,
  };
}
