/**
 * Runs. `claude -p` prints one `system:init` per run (and, in streaming input, one per turn); a loop that restarts
 * it and appends its output to one log puts several runs one after another, and a run that was killed ends
 * without its `result`. An init that arrives while a turn which already met its own init is still open therefore
 * starts a new run: what the previous run left open (requests, streamed blocks, tools, the turn) is closed first,
 * on the previous run's thread, so that thread returns to idle before the next turn.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { type ClaudeContext, emit } from "./context.js";
import { cancelOpenRequests } from "./permissions.js";
import { closeTurnContents } from "./turns.js";

export const UNFINISHED_RUN = "the run ended without a result (a new run started)";

/** At an inbound `system:init`, before the record's session is noted. */
export function closeUnfinishedRun(ctx: ClaudeContext): RuntimeEvent[] {
  const { state } = ctx;
  if (state.turnId === undefined) {
    state.initAwaitingTurn = true;
    return [];
  }
  if (!state.turnSawInit) {
    // The turn the host's prompt opened before its run printed its init: this init is that turn's own.
    state.turnSawInit = true;
    return [];
  }
  const events = onTurnThread(ctx, () => [
    ...cancelOpenRequests(ctx, UNFINISHED_RUN),
    ...closeTurnContents(ctx, UNFINISHED_RUN),
    emit(ctx, "turn.completed", { state: "failed", stopReason: null, errorMessage: UNFINISHED_RUN }),
  ]);
  state.turnId = undefined;
  state.turnThread = undefined;
  state.interruptRequested = false;
  state.initAwaitingTurn = true;
  return events;
}

/** Emits on the open turn's thread, which a record of the next run may already have switched away from. */
function onTurnThread(ctx: ClaudeContext, close: () => RuntimeEvent[]): RuntimeEvent[] {
  const { state } = ctx;
  const current = { threadId: state.threadId, providerSessionId: state.providerSessionId };
  const own = state.turnThread ?? current;
  state.threadId = own.threadId;
  state.providerSessionId = own.providerSessionId;
  try {
    return close();
  } finally {
    state.threadId = current.threadId;
    state.providerSessionId = current.providerSessionId;
  }
}
