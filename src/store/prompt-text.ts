import type { RuntimeEvent } from "../contracts/events.js";

/** The longest prompt text a search index keeps of one prompt. */
export const PROMPT_INDEX_CHARS = 8_192;

/** A user's prompt in a stream (a completed `user_message` item), as search indexes take it. */
export function promptOf(event: RuntimeEvent): string | undefined {
  if (event.type !== "item.completed" || event.payload.itemType !== "user_message") return undefined;
  const details = event.payload.details as { text?: unknown } | undefined;
  const text = details?.text;
  return typeof text === "string" && text.length > 0 ? text.slice(0, PROMPT_INDEX_CHARS) : undefined;
}
