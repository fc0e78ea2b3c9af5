import type BetterSqlite3 from "better-sqlite3";
import { SESSION_COLUMNS, SESSION_PARAMS, type SessionRow } from "./session-rows.js";
import type { SqliteDatabase } from "./sqlite-module.js";

type Statement<P extends unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

export interface EventRow {
  sequence: number;
  raw_id: number | null;
  body: string;
}

/** Every statement the store runs, prepared once. */
export interface Statements {
  sessionExists: Statement<[string], 1>;
  selectSession: Statement<[string], SessionRow>;
  listSessions: Statement<[], SessionRow>;
  insertSession: Statement<[SessionRow]>;
  replaceSession: Statement<[SessionRow]>;
  touchSession: Statement<[number, string, string, number]>;
  selectStream: Statement<[string], { sid: number; last_sequence: number }>;
  insertStream: Statement<[string]>;
  insertRaw: Statement<[number, string]>;
  selectRaw: Statement<[number], string>;
  insertEvent: Statement<[number, number, number | null, string]>;
  selectEvents: Statement<[number, number, number], EventRow>;
}

export function prepareStatements(db: SqliteDatabase): Statements {
  return {
    sessionExists: db.prepare<[string], 1>("SELECT 1 FROM sessions WHERE id = ?").pluck(),
    selectSession: db.prepare<[string], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
    listSessions: db.prepare<[], SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, created_at DESC, id`,
    ),
    insertSession: db.prepare<[SessionRow]>(
      `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (${SESSION_PARAMS})`,
    ),
    replaceSession: db.prepare<[SessionRow]>(
      `INSERT OR REPLACE INTO sessions (${SESSION_COLUMNS}) VALUES (${SESSION_PARAMS})`,
    ),
    touchSession: db.prepare<[number, string, string, number]>(
      "UPDATE sessions SET last_sequence = ?, updated_at = ? WHERE id = ? AND last_sequence < ?",
    ),
    selectStream: db.prepare<[string], { sid: number; last_sequence: number }>(
      "SELECT sid, (SELECT coalesce(max(sequence), 0) FROM events WHERE events.sid = streams.sid) AS last_sequence FROM streams WHERE session_id = ?",
    ),
    insertStream: db.prepare<[string]>("INSERT INTO streams (session_id) VALUES (?)"),
    insertRaw: db.prepare<[number, string]>("INSERT INTO raws (sid, body) VALUES (?, ?)"),
    selectRaw: db.prepare<[number], string>("SELECT body FROM raws WHERE id = ?").pluck(),
    insertEvent: db.prepare<[number, number, number | null, string]>(
      "INSERT INTO events (sid, sequence, raw_id, body) VALUES (?, ?, ?, ?)",
    ),
    selectEvents: db.prepare<[number, number, number], EventRow>(
      "SELECT sequence, raw_id, body FROM events WHERE sid = ? AND sequence > ? ORDER BY sequence LIMIT ?",
    ),
  };
}
