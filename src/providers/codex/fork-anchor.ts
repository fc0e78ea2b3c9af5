import type { RuntimeEvent } from "../../contracts/events.js";

/** Codex forks through a turn by its native id (`thread/fork` `lastTurnId`), which every turn event names. */
export function codexForkAnchor(event: RuntimeEvent): string | undefined {
  return event.providerRefs?.providerTurnId;
}
