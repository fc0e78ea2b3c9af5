import type { RuntimeEvent } from "../../contracts/events.js";
import { isObject, str } from "../../kit/guards.js";

/**
 * Claude resumes a session up to a message (`resumeSessionAt`, a chain entry's uuid): a turn ends with its last
 * assistant message, so each one a turn's events carry moves the turn's mark on.
 */
export function claudeForkAnchor(event: RuntimeEvent): string | undefined {
  const raw = event.raw;
  if (raw?.source !== "claude.sdk.message" || !isObject(raw.payload)) return undefined;
  return raw.payload.type === "assistant" ? str(raw.payload.uuid) : undefined;
}
