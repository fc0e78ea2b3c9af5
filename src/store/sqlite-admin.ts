import { PROMPT_INDEX_CHARS } from "./prompt-text.js";
import { ftsQuery, searchWords } from "./search-words.js";
import { decodeCursor, encodeCursor } from "./session-cursor.js";
import { fromRow, SESSION_COLUMNS, type SessionRow } from "./session-rows.js";
import type { SqliteDatabase } from "./sqlite-module.js";
import type { SessionPage, SessionQuery } from "./types.js";

/**
 * The registry's list, search and purge on SQLite (schema version 2): filters on the `sessions` columns, words
 * through the FTS5 index over `session_texts`, newest first by `(created_at, id)`.
 */
export class SqliteSessionAdmin {
  readonly #db: SqliteDatabase;
  /** Prepared list statements by shape (which filters are present): at most 2^5. */
  readonly #lists = new Map<string, ReturnType<SqliteDatabase["prepare"]>>();
  readonly #insertText;
  readonly #deleteTexts;
  readonly #deleteTitle;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#insertText = db.prepare<[string, string, string]>(
      "INSERT INTO session_texts (session_id, kind, body) VALUES (?, ?, ?)",
    );
    this.#deleteTexts = db.prepare<[string]>("DELETE FROM session_texts WHERE session_id = ?");
    this.#deleteTitle = db.prepare<[string]>(
      "DELETE FROM session_texts WHERE session_id = ? AND kind = 'title'",
    );
  }

  /** Inside a write transaction: the session's title in the index is now `title`. */
  setTitle(sessionId: string, title: string): void {
    this.#deleteTitle.run(sessionId);
    this.#insertText.run(sessionId, "title", title.slice(0, PROMPT_INDEX_CHARS));
  }

  /** Inside a write transaction. */
  addPrompt(sessionId: string, text: string): void {
    this.#insertText.run(sessionId, "prompt", text);
  }

  /** Inside a write transaction: every row of the session, in the order nothing dangles. */
  purge(sessionId: string): void {
    const sid = this.#db
      .prepare<[string], number>("SELECT sid FROM streams WHERE session_id = ?")
      .pluck()
      .get(sessionId);
    if (sid !== undefined) {
      this.#db
        .prepare(
          "DELETE FROM raws WHERE id IN (SELECT raw_id FROM events WHERE sid = ? AND raw_id IS NOT NULL)",
        )
        .run(sid);
      this.#db.prepare("DELETE FROM events WHERE sid = ?").run(sid);
      this.#db.prepare("DELETE FROM streams WHERE sid = ?").run(sid);
    }
    this.#deleteTexts.run(sessionId);
    this.#db.prepare("DELETE FROM sessions WHERE id = ?").run(sessionId);
  }

  /** Undefined when the cursor does not decode. */
  query(query: SessionQuery): SessionPage | undefined {
    const where = ["archived = @archived"];
    const params: Record<string, unknown> = {
      archived: query.archived === true ? 1 : 0,
      limit: query.limit + 1,
    };
    if (query.provider !== undefined) {
      where.push("provider = @provider");
      params.provider = query.provider;
    }
    if (query.state !== undefined) {
      where.push("state = @state");
      params.state = query.state;
    }
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor);
      if (position === undefined) return undefined;
      where.push("(created_at, id) < (@cursorAt, @cursorId)");
      params.cursorAt = position.createdAt;
      params.cursorId = position.id;
    }
    const words = searchWords(query.q);
    if (query.q !== undefined && words.length === 0) return { sessions: [] };
    if (words.length > 0) {
      // every word in one of the session's texts: one FTS5 match per word, intersected
      const matches = words.map(
        (_, index) =>
          `SELECT t.session_id FROM session_search JOIN session_texts t ON t.id = session_search.rowid WHERE session_search MATCH @w${index}`,
      );
      where.push(`id IN (${matches.join(" INTERSECT ")})`);
      words.forEach((word, index) => {
        params[`w${index}`] = ftsQuery([word]);
      });
    }
    const sql = `SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT @limit`;
    let statement = this.#lists.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#lists.set(sql, statement);
    }
    const rows = statement.all(params) as SessionRow[];
    const more = rows.length > query.limit;
    const sessions = rows.slice(0, query.limit).map(fromRow);
    const last = sessions.at(-1);
    return more && last !== undefined ? { sessions, next: encodeCursor(last) } : { sessions };
  }
}
