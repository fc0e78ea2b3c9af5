import type { RuntimeEvent } from "../../contracts/events.js";

/**
 * ACP's `session/fork` has no fork point of its own: it copies the whole conversation. A turn's mark is the turn
 * itself, which is enough to tell a completed turn from an unknown one and the last turn from an earlier one.
 */
export function acpForkAnchor(event: RuntimeEvent): string | undefined {
  return event.turnId;
}
