import type { SqliteDatabase } from "./sqlite-module.js";

const SCHEMA_VERSION = 1;

/**
 * Durability: `append` resolves only after its transaction has committed, so in WAL mode an acknowledged event
 * survives SIGKILL of the process at either level (it is in the WAL file, which the next open replays).
 * `synchronous = FULL` also syncs the WAL at every commit, so it survives an OS crash or power loss too, at an
 * fsync per commit (a batch of appends shares one). `NORMAL` syncs only at checkpoints, which a background thread
 * runs (sqlite-checkpointer.ts): the connection's own automatic checkpoint is turned off here.
 */
export function configure(db: SqliteDatabase, synchronous: "full" | "normal"): void {
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
  // another process (an `import` beside a running `serve`) may hold the write lock for a moment
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = OFF");
  db.pragma("wal_autocheckpoint = 0");
}

/**
 * - `sessions`: the registry, one row per SessionRecord; nested fields are JSON columns.
 * - `streams`: a small integer key per session's log (its last sequence is the events' max, read via the key).
 * - `raws`: each distinct native record of a session once. It has no index on its content: a unique index on a
 *   hash is a random-order B-tree, and every commit rewrote hundreds of its pages; the store finds a repeated
 *   record in memory instead (sqlite-store.ts, RAW_WINDOW).
 * - `events`: each canonical event's JSON with its `raw` replaced by a placeholder, and the id of its raw.
 */
export function migrate(db: SqliteDatabase): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION)
    throw new Error(`store.db has schema version ${version}; this provider-runtime knows ${SCHEMA_VERSION}`);
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => db.exec(CREATE_TABLES))();
}

const CREATE_TABLES = `
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      origin TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      cwd TEXT,
      model TEXT,
      agent TEXT,
      native TEXT,
      state TEXT NOT NULL,
      last_sequence INTEGER NOT NULL,
      open_requests INTEGER NOT NULL,
      title TEXT,
      exited INTEGER NOT NULL,
      imported_from TEXT,
      owner TEXT
    );
    CREATE INDEX sessions_by_update ON sessions (updated_at DESC);
    CREATE TABLE streams (
      sid INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL UNIQUE
    );
    CREATE TABLE raws (
      id INTEGER PRIMARY KEY,
      sid INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE TABLE events (
      sid INTEGER NOT NULL,
      sequence INTEGER NOT NULL,
      raw_id INTEGER,
      body TEXT NOT NULL,
      PRIMARY KEY (sid, sequence)
    );
    PRAGMA user_version = ${SCHEMA_VERSION};
`;
