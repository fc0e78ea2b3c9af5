import { searchWords, textsMatch } from "./search-words.js";
import { compareListed, decodeCursor, encodeCursor, isAfterCursor } from "./session-cursor.js";
import type { SessionPage, SessionQuery, SessionRecord } from "./types.js";

/**
 * A query answered over records in memory (a store with no index of its own): filters, words of the title and
 * of the texts `textsOf` gives, newest first, a page. Undefined for a cursor that does not decode.
 */
export function listFromRecords(
  records: readonly SessionRecord[],
  query: SessionQuery,
  textsOf: (record: SessionRecord) => readonly string[] = () => [],
): SessionPage | undefined {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && cursor === undefined) return undefined;
  const words = searchWords(query.q);
  if (query.q !== undefined && words.length === 0) return { sessions: [] };
  const archived = query.archived === true;
  const matching = records.filter(
    (record) =>
      (record.archived === true) === archived &&
      (query.provider === undefined || record.provider === query.provider) &&
      (query.state === undefined || record.state === query.state) &&
      (cursor === undefined || isAfterCursor(record, cursor)) &&
      textsMatch(words, [record.title ?? "", ...textsOf(record)]),
  );
  matching.sort(compareListed);
  const sessions = matching.slice(0, query.limit);
  const last = sessions.at(-1);
  return matching.length > query.limit && last !== undefined
    ? { sessions, next: encodeCursor(last) }
    : { sessions };
}
