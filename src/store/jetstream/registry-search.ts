import type { RuntimeEvent } from "../../contracts/events.js";
import { promptOf } from "../prompt-text.js";
import { listFromRecords } from "../registry-listing.js";
import type { SessionPage, SessionQuery, SessionRecord } from "../types.js";

/** How many prompts, and how many characters of them, a registry record keeps for search. */
const MAX_PROMPTS = 64;
const MAX_PROMPT_CHARS = 16_384;

/** The record's prompts with those of `events` added, or undefined when `events` holds none. */
export function promptsAfter(
  record: SessionRecord | undefined,
  events: readonly RuntimeEvent[],
): string[] | undefined {
  const added: string[] = [];
  for (const event of events) {
    const prompt = promptOf(event);
    if (prompt !== undefined) added.push(prompt);
  }
  if (added.length === 0) return undefined;
  const prompts = [...(record?.prompts ?? []), ...added].slice(-MAX_PROMPTS);
  let total = 0;
  for (let i = prompts.length - 1; i >= 0; i--) {
    total += (prompts[i] as string).length;
    if (total > MAX_PROMPT_CHARS) return prompts.slice(i + 1);
  }
  return prompts;
}

/** The registry's list and search, over its records (each read from the KV bucket) with their prompts. */
export function queryRegistry(records: readonly SessionRecord[], query: SessionQuery): SessionPage {
  const page = listFromRecords(records, query, (record) => record.prompts ?? []);
  if (page === undefined) throw new SyntaxError("cursor: not a cursor of this list");
  return page;
}
