import type { SqliteDatabase } from "./sqlite-module.js";

const SCHEMA_VERSION = 2;

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
  db.transaction(() => {
    if (version < 1) db.exec(CREATE_TABLES);
    if (version < 2) db.exec(SESSION_ADMIN);
  })();
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
    PRAGMA user_version = 1;
`;

/**
 * Version 2, sessions a person manages: a fork's parent, the archived flag, and the search index. `session_texts`
 * holds each session's title and prompts (one row each, by session, so a rename or a purge finds its rows);
 * `session_search` is an FTS5 index over it (external content, kept by triggers). A store of version 1 gets the
 * columns and the index, filled from its titles and stored prompts.
 */
const SESSION_ADMIN = `
    ALTER TABLE sessions ADD COLUMN parent_id TEXT;
    ALTER TABLE sessions ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX sessions_by_creation ON sessions (archived, created_at DESC, id DESC);
    CREATE TABLE session_texts (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX session_texts_by_session ON session_texts (session_id, kind);
    CREATE VIRTUAL TABLE session_search USING fts5(body, content = 'session_texts', content_rowid = 'id');
    CREATE TRIGGER session_texts_added AFTER INSERT ON session_texts BEGIN
      INSERT INTO session_search (rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER session_texts_removed AFTER DELETE ON session_texts BEGIN
      INSERT INTO session_search (session_search, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    INSERT INTO session_texts (session_id, kind, body)
      SELECT id, 'title', title FROM sessions WHERE title IS NOT NULL;
    INSERT INTO session_texts (session_id, kind, body)
      SELECT streams.session_id, 'prompt', json_extract(events.body, '$.payload.details.text')
      FROM events JOIN streams ON streams.sid = events.sid
      WHERE json_extract(events.body, '$.type') = 'item.completed'
        AND json_extract(events.body, '$.payload.itemType') = 'user_message'
        AND json_type(events.body, '$.payload.details.text') = 'text';
    PRAGMA user_version = 2;
`;
