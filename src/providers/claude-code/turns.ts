/**
 * Turns of a session file: one per user prompt. The file has no end-of-turn record (the SDK's `result` is not
 * written), so a turn ends where the next prompt starts, at the user's interruption, or at the end of the
 * input. Its end carries the time of the turn's last record, the last assistant message's stop reason, and
 * `failed` when the turn's last model call ended in an API error.
 */
import type { TurnState } from "../../contracts/enums.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { str } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import { emit } from "../claude/context.js";
import { ensureTurn } from "../claude/turn-start.js";
import { closeTurnContents } from "../claude/turns.js";
import type { SessionFileContext } from "./context.js";

/**
 * A prompt: the open turn ends, a new one starts. Its id comes from the prompt record's `uuid` (not from a count
 * of turns), so the part of a file that grew after an import gets turn ids of its own when mapped alone.
 */
export function startPromptTurn(ctx: SessionFileContext): RuntimeEvent[] {
  const events = endTurn(ctx, "completed", "next prompt");
  const uuid = str(ctx.record.uuid);
  if (uuid === undefined) events.push(...ensureTurn(ctx));
  else {
    const { state } = ctx;
    state.turnCount += 1;
    state.turnId = mintId(state.sessionId, "turn", `prompt:${uuid}`);
    state.interruptRequested = false;
    events.push(emit(ctx, "turn.started", {}));
  }
  resetTurn(ctx);
  return events;
}

/** Ends the open turn (none open: nothing). `interrupted` wins over an error; else an error makes it `failed`. */
export function endTurn(ctx: SessionFileContext, state: TurnState, reason: string): RuntimeEvent[] {
  const { file, builder } = ctx;
  if (ctx.state.turnId === undefined) return [];
  const final: TurnState = state === "interrupted" ? state : file.turnError !== undefined ? "failed" : state;
  const now = file.lastTime;
  // An interruption is the turn's last record itself; otherwise the turn ended with its last record.
  builder.at(state === "interrupted" ? now : (file.turnLastTime ?? now));
  const events = closeTurnContents(ctx, reason);
  events.push(
    emit(ctx, "turn.completed", {
      state: final,
      stopReason: file.turnStopReason ?? null,
      ...(final === "failed" && file.turnError !== undefined ? { errorMessage: file.turnError } : {}),
    }),
  );
  builder.at(now);
  ctx.state.turnId = undefined;
  resetTurn(ctx);
  return events;
}

function resetTurn(ctx: SessionFileContext): void {
  ctx.file.turnStopReason = undefined;
  ctx.file.turnError = undefined;
  ctx.file.turnLastTime = undefined;
}
