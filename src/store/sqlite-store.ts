import { chmod, mkdir, open } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import { decodeEvent, type EncodedEvent, type EncodedRaw, encodeEvents } from "./event-codec.js";
import { FollowerHub, type FollowStats } from "./followers.js";
import { promptOf } from "./prompt-text.js";
import { applyPatch, fromRow, toRow } from "./session-rows.js";
import { SqliteSessionAdmin } from "./sqlite-admin.js";
import { type Checkpointer, startCheckpointer } from "./sqlite-checkpointer.js";
import { loadSqlite, openDatabase, type SqliteDatabase } from "./sqlite-module.js";
import { configure, migrate } from "./sqlite-schema.js";
import { prepareStatements, type Statements } from "./sqlite-statements.js";
import type {
  SessionPage,
  SessionPatch,
  SessionQuery,
  SessionRecord,
  SessionStore,
  StoreHealth,
} from "./types.js";
import { WriteHealth } from "./write-health.js";

export interface SqliteStoreOptions {
  /** The directory of `store.db` (created 0700 if missing; the file is 0600). */
  dataDir: string;
  /**
   * `normal` (default): a commit survives the process being killed, and costs no fsync; `full`: it also survives
   * power loss, at an fsync per commit (on the caller's thread).
   */
  synchronous?: "full" | "normal";
  /** Milliseconds between the background thread's WAL checkpoints (default 200; see sqlite-checkpointer.ts). */
  checkpointEveryMs?: number;
  /** WAL pages (4 KiB) past which the WAL is started over (default 16,384: 64 MiB). */
  walRestartFrames?: number;
  /** Told when a background checkpoint fails (default: a process warning); the next one tries again. */
  warn?: (message: string) => void;
  /** Committed events a live follower may hold before it reads from the file instead (default 1,024). */
  followBufferEvents?: number;
  /** Sessions whose stream state (key, last sequence, recent raws) stays in memory (default 1,000). */
  cachedSessions?: number;
}

/** The file's name inside the data dir. */
export const STORE_FILE = "store.db";

/** Opens (creating if needed) `DATA/store.db`; better-sqlite3 is loaded now, not when this module is imported. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const Database = await loadSqlite();
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const file = join(options.dataDir, STORE_FILE);
  // made 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode
  await (await open(file, "a", 0o600)).close();
  await chmod(file, 0o600);
  let db: SqliteDatabase | undefined;
  try {
    db = openDatabase(Database, file);
    configure(db, options.synchronous ?? "normal");
    migrate(db);
  } catch (error) {
    db?.close();
    throw unreadableStoreError(file, error);
  }
  return new SqliteStore(db, file, options);
}

/** A store file SQLite cannot read (damaged, or not a database): one line naming the file and what to do. */
function unreadableStoreError(file: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code !== "SQLITE_NOTADB" && code !== "SQLITE_CORRUPT") return error;
  return new Error(
    `${file} is damaged (${(error as Error).message}): move it aside (or restore it from a backup) and start again; a new, empty store is made in its place`,
  );
}

/** A stream's key and how far it is stored; cached (bounded) so an append does not read them each time. */
interface StreamState {
  sid: number;
  last: number;
  /** The stream's last RAW_WINDOW distinct raws by hash, least recently used first. */
  rawIds: Map<string, number>;
}

/** What one queued op did inside the transaction: refused it, or stored these events (to tell followers). */
interface Outcome {
  error?: Error;
  stored?: { sessionId: string; events: RuntimeEvent[] };
}

interface PendingOp {
  apply(): Outcome;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * How many distinct native records per session a repeat is recognised among. The events of one record are
 * emitted together (and derived events follow the record's own), so a repeat is nearly always the previous
 * record; the golden files' few later repeats are within a handful of records. A record that comes back after
 * more than this many others is stored again: correct, only not deduplicated.
 */
const RAW_WINDOW = 64;

/**
 * The embedded SessionStore. Writes queue up and are committed together in one transaction on the next turn of
 * the event loop (appends arriving close together share a commit, and its fsync); each promise resolves after
 * that commit. better-sqlite3 is synchronous, so a commit and the notification of followers happen in one step.
 *
 * Beyond the interface's contract: `append` also moves the registry record's `lastSequence` and `updatedAt` (the
 * last stored event's `createdAt`) in the same transaction, so the registry never lags the log after a crash.
 * Several processes may open one file (an `import` beside a running `serve`); `follow` sees live only what this
 * process appends, and a session should have one writer at a time (its sequence is checked against this
 * process's view of it).
 */
export class SqliteStore implements SessionStore {
  readonly #db: SqliteDatabase;
  readonly #checkpointer: Checkpointer;
  readonly #sql: Statements;
  /** Bounded: at most `cachedSessions` sessions' stream state (each with its raw window) stays in memory. */
  readonly #streams: BoundedMap<string, StreamState>;
  readonly #hub: FollowerHub;
  readonly #admin: SqliteSessionAdmin;
  readonly commitsOneTickTogether = true;
  readonly appendMovesLastSequence = true;
  #pending: PendingOp[] = [];
  #scheduled = false;
  #closed = false;
  #commits = 0;
  readonly #writes: WriteHealth;

  constructor(db: SqliteDatabase, file: string, options: SqliteStoreOptions) {
    this.#db = db;
    this.#writes = new WriteHealth(dirname(file));
    const warn = options.warn ?? ((message: string) => process.emitWarning(message));
    this.#checkpointer = startCheckpointer({
      file,
      everyMs: options.checkpointEveryMs ?? 200,
      restartFrames: options.walRestartFrames ?? 16_384,
      onResumed: () => this.#resumeWrites(),
      onError: (message) => warn(`store.db: a background checkpoint failed: ${message}`),
      onLost: (message) => {
        warn(`store.db: the checkpoint thread stopped (${message}); commits checkpoint for themselves`);
        if (db.open) db.pragma("wal_autocheckpoint = 1000");
      },
    });
    this.#streams = new BoundedMap(options.cachedSessions ?? 1_000);
    this.#sql = prepareStatements(db);
    this.#admin = new SqliteSessionAdmin(db);
    this.#hub = new FollowerHub((id, after, limit) => this.#read(id, after, limit), {
      bufferEvents: options.followBufferEvents ?? 1_024,
      pageEvents: 256,
    });
  }

  createSession(record: SessionRecord): Promise<void> {
    return this.#enqueue(() => {
      if (this.#sql.sessionExists.get(record.id) !== undefined)
        return { error: new Error(`session ${record.id} already exists`) };
      this.#sql.insertSession.run(toRow(record));
      if (record.title !== undefined) this.#admin.setTitle(record.id, record.title);
      return {};
    });
  }

  updateSession(id: string, patch: SessionPatch): Promise<void> {
    return this.#enqueue(() => {
      const row = this.#sql.selectSession.get(id);
      if (row === undefined) return { error: new Error(`unknown session ${id}`) };
      this.#sql.replaceSession.run(toRow(applyPatch(fromRow(row), patch)));
      if (patch.title !== undefined && patch.title !== row.title) this.#admin.setTitle(id, patch.title);
      return {};
    });
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    this.#assertOpen();
    const row = this.#sql.selectSession.get(id);
    return row === undefined ? undefined : fromRow(row);
  }

  async listSessions(): Promise<SessionRecord[]> {
    this.#assertOpen();
    return this.#sql.listSessions.all().map(fromRow);
  }

  /** Rejects with a `SyntaxError` for a cursor that is not one of ours. */
  async querySessions(query: SessionQuery): Promise<SessionPage> {
    this.#assertOpen();
    const page = this.#admin.query(query);
    if (page === undefined) throw new SyntaxError("cursor: not a cursor of this list");
    return page;
  }

  purgeSession(id: string): Promise<void> {
    return this.#enqueue(() => {
      this.#admin.purge(id);
      this.#streams.release(id);
      return {};
    });
  }

  append(sessionId: string, events: readonly RuntimeEvent[]): Promise<void> {
    if (events.length === 0) return this.#closed ? Promise.reject(closedError()) : Promise.resolve();
    let encoded: EncodedEvent[];
    try {
      // serialized here, not in the batch: an event that cannot be (too deep for JSON.stringify) fails its own append
      encoded = encodeEvents(events);
    } catch (cause) {
      return Promise.reject(new Error(`session ${sessionId}: an event cannot be serialized`, { cause }));
    }
    return this.#enqueue(() => this.#appendNow(sessionId, events, encoded));
  }

  async readEvents(sessionId: string, after: number, limit: number): Promise<RuntimeEvent[]> {
    this.#assertOpen();
    return this.#read(sessionId, after, limit);
  }

  follow(sessionId: string, after: number, signal: AbortSignal): AsyncIterable<RuntimeEvent> {
    this.#assertOpen();
    return this.#hub.follow(sessionId, after, signal);
  }

  /** The checkpoint thread has started the WAL over: what was held back is written now. */
  #resumeWrites(): void {
    if (this.#closed || this.#scheduled || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  /** `connected` is false while SQLite cannot write (a full disk): the server's health says so. */
  health(): StoreHealth {
    return this.#writes.health();
  }

  /** Transactions committed so far (how well appends are batched). */
  get commits(): number {
    return this.#commits;
  }

  /** Live follows and what they hold in memory. */
  followStats(): FollowStats {
    return this.#hub.stats();
  }

  /** Bytes of event JSON (raw left out) and of distinct native records stored, over every session. */
  storedBytes(): { events: number; raws: number } {
    this.#assertOpen();
    return {
      events: this.#db
        .prepare("SELECT total(length(CAST(body AS BLOB))) FROM events")
        .pluck()
        .get() as number,
      raws: this.#db.prepare("SELECT total(length(CAST(body AS BLOB))) FROM raws").pluck().get() as number,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flush(true);
    this.#closed = true;
    this.#writes.close();
    this.#hub.close();
    await this.#checkpointer.close();
    this.#db.close();
  }

  #enqueue(apply: () => Outcome): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      this.#pending.push({ apply, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /**
   * Commits everything queued in one transaction. An op that is refused (a sequence gap, an unknown session) is
   * refused inside it without failing the others; if SQLite itself fails the transaction (disk full, a row too big),
   * each op is retried in a transaction of its own so only the one at fault is rejected.
   */
  #flush(closing = false): void {
    this.#scheduled = false;
    const ops = this.#pending;
    if (ops.length === 0) return;
    // held in memory while the WAL is started over (#resumeWrites schedules them again), unless closing
    if (this.#checkpointer.restarting && !closing) return;
    this.#pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.#db.transaction(() => ops.map((op) => op.apply()))();
      this.#commits++;
      this.#writes.succeeded();
    } catch {
      this.#streams.clear(); // it may hold what the rolled-back transaction wrote
      for (const op of ops) this.#flushAlone(op);
      return;
    }
    for (const [index, op] of ops.entries()) this.#settle(op, outcomes[index] ?? {});
  }

  #flushAlone(op: PendingOp): void {
    let outcome: Outcome;
    try {
      outcome = this.#db.transaction(() => op.apply())();
      this.#commits++;
      this.#writes.succeeded();
    } catch (error) {
      this.#streams.clear();
      this.#writes.failed(error);
      op.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.#settle(op, outcome);
  }

  #settle(op: PendingOp, outcome: Outcome): void {
    if (outcome.error !== undefined) {
      op.reject(outcome.error);
      return;
    }
    op.resolve();
    if (outcome.stored !== undefined) this.#hub.committed(outcome.stored.sessionId, outcome.stored.events);
  }

  /** Inside the flush transaction: checks the sequences, then writes the new events (duplicates skipped). */
  #appendNow(sessionId: string, events: readonly RuntimeEvent[], encoded: EncodedEvent[]): Outcome {
    const known = this.#stream(sessionId);
    let last = known?.last ?? 0;
    for (const { sequence } of encoded) {
      if (!Number.isSafeInteger(sequence) || sequence < 1)
        return { error: new Error(`session ${sessionId}: sequence ${sequence} is not a positive integer`) };
      if (sequence <= last) continue;
      if (sequence !== last + 1)
        return { error: new Error(`session ${sessionId}: sequence ${sequence} after ${last} leaves a gap`) };
      last = sequence;
    }
    if (last === (known?.last ?? 0)) return {}; // all of them already stored
    const stream = known ?? this.#createStream(sessionId);
    const stored: RuntimeEvent[] = [];
    encoded.forEach((event, index) => {
      if (event.sequence <= stream.last) return;
      const rawId = event.raw === undefined ? null : this.#rawId(stream, event.raw);
      this.#sql.insertEvent.run(stream.sid, event.sequence, rawId, event.body);
      stream.last = event.sequence;
      const original = events[index] as RuntimeEvent;
      const prompt = promptOf(original);
      if (prompt !== undefined) this.#admin.addPrompt(sessionId, prompt);
      stored.push(original);
    });
    const newest = stored[stored.length - 1] as RuntimeEvent;
    this.#sql.touchSession.run(stream.last, newest.createdAt, sessionId, stream.last);
    return { stored: { sessionId, events: stored } };
  }

  #rawId(stream: StreamState, raw: EncodedRaw): number {
    const ids = stream.rawIds;
    const known = ids.get(raw.hash);
    if (known !== undefined) {
      ids.delete(raw.hash);
      ids.set(raw.hash, known);
      return known;
    }
    const id = Number(this.#sql.insertRaw.run(stream.sid, raw.json).lastInsertRowid);
    ids.set(raw.hash, id);
    if (ids.size > RAW_WINDOW) ids.delete(ids.keys().next().value as string);
    return id;
  }

  #stream(sessionId: string): StreamState | undefined {
    const cached = this.#streams.get(sessionId);
    if (cached !== undefined) return cached;
    const row = this.#sql.selectStream.get(sessionId);
    if (row === undefined) return undefined;
    const state = { sid: row.sid, last: row.last_sequence, rawIds: new Map() };
    this.#streams.set(sessionId, state);
    return state;
  }

  #createStream(sessionId: string): StreamState {
    const sid = Number(this.#sql.insertStream.run(sessionId).lastInsertRowid);
    const state = { sid, last: 0, rawIds: new Map() };
    this.#streams.set(sessionId, state);
    return state;
  }

  /** Synchronous on purpose: `follow` relies on no commit falling between a read and its switch to live. */
  #read(sessionId: string, after: number, limit: number): RuntimeEvent[] {
    if (this.#closed) return [];
    const stream = this.#stream(sessionId);
    const count = Math.max(0, Math.floor(limit));
    if (stream === undefined || count === 0) return [];
    const rows = this.#sql.selectEvents.all(stream.sid, Math.max(0, Math.floor(after)), count);
    const raws = new Map<number, unknown>();
    return rows.map((row) => {
      if (row.raw_id === null) return decodeEvent(row.body, undefined);
      let raw = raws.get(row.raw_id);
      if (raw === undefined) {
        const body = this.#sql.selectRaw.get(row.raw_id);
        if (body === undefined)
          throw new Error(`store.db: event ${sessionId}:${row.sequence} lost its raw record`);
        raw = JSON.parse(body);
        raws.set(row.raw_id, raw);
      }
      return decodeEvent(row.body, raw);
    });
  }

  #assertOpen(): void {
    if (this.#closed) throw closedError();
  }
}

const closedError = () => new Error("the store is closed");
