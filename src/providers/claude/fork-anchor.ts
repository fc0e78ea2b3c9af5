import type { RuntimeEvent } from "../../contracts/events.js";
import { isObject, str } from "../../kit/guards.js";

/** Where a Claude assistant message reaches the canonical stream: the SDK's messages, and (import) a session file's records. */
const CLAUDE_SOURCES = new Set(["claude.sdk.message", "claude.session-file"]);

/**
 * Claude resumes a session up to a message (`resumeSessionAt`, a chain entry's uuid): a turn ends with its last
 * assistant message, so each one a turn's events carry moves the turn's mark on. A subagent's own messages (a
 * session file's sidechain) are no entry of the main chain.
 */
export function claudeForkAnchor(event: RuntimeEvent): string | undefined {
  const raw = event.raw;
  if (raw === undefined || !CLAUDE_SOURCES.has(raw.source) || !isObject(raw.payload)) return undefined;
  const record = raw.payload;
  if (record.type !== "assistant" || record.isSidechain === true) return undefined;
  return str(record.uuid);
}
