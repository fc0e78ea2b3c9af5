/**
 * The words of a search, as an FTS5 query and as a matcher for stores without an index (JetStream). A word is a
 * run of letters and digits; each must occur (as a word's start) in the title or in one prompt. Linear in the
 * query's length; no FTS5 syntax of the user's ever reaches SQLite.
 */
const WORD = /[\p{L}\p{N}_]+/gu;
const MAX_WORDS = 16;

export function searchWords(q: string | undefined): string[] {
  if (q === undefined) return [];
  return [...new Set((q.normalize("NFKC").toLowerCase().match(WORD) ?? []).slice(0, MAX_WORDS))];
}

/** `"alpha"* AND "beta"*`: each word quoted (a word holds no quote) and as a prefix. */
export function ftsQuery(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(" AND ");
}

/** Whether every word starts some word of the texts taken together. */
export function textsMatch(words: readonly string[], texts: readonly string[]): boolean {
  if (words.length === 0) return true;
  const present = new Set<string>();
  for (const text of texts)
    for (const word of text.normalize("NFKC").toLowerCase().match(WORD) ?? []) present.add(word);
  return words.every((word) => {
    if (present.has(word)) return true;
    for (const candidate of present) if (candidate.startsWith(word)) return true;
    return false;
  });
}
