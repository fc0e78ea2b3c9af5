import type { RuntimeEvent } from "../../contracts/events.js";
import { mintId } from "../../kit/ids.js";
import { type ClaudeContext, emit } from "./context.js";

/**
 * Turns. A turn starts when the host sends a prompt (an `out` user message) or, in a transcript without host
 * records, at the first message that belongs to a turn; it ends at the `result` message — exactly once.
 */
export function ensureTurn(ctx: ClaudeContext): RuntimeEvent[] {
  const { state } = ctx;
  if (state.turnId !== undefined) return [];
  state.turnCount += 1;
  state.turnId = mintId(state.sessionId, "turn", `turn:${state.turnCount}`);
  state.interruptRequested = false;
  state.turnThread = { threadId: state.threadId, providerSessionId: state.providerSessionId };
  state.turnSawInit = state.initAwaitingTurn;
  state.initAwaitingTurn = false;
  return [emit(ctx, "turn.started", {})];
}
