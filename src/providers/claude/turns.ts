import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, isObject, num, str } from "../../kit/guards.js";
import { type ClaudeContext, emit } from "./context.js";
import { closeAllBlocks } from "./stream-blocks.js";
import { abandonOpenTools } from "./tool-items.js";
import { ensureTurn } from "./turn-start.js";
import { tokenUsageOf } from "./usage.js";

/** `result:*` → turn.completed with usage, model usage, cost and stop reason; errors add runtime.error first. */
export function mapResult(ctx: ClaudeContext): RuntimeEvent[] {
  const { msg, state } = ctx;
  const events = ensureTurn(ctx);
  const subtype = str(msg.subtype) ?? "unknown";
  const isError = subtype !== "success" || msg.is_error === true;
  const interrupted = state.interruptRequested;
  const errorMessage = isError ? errorTextOf(msg, subtype) : undefined;
  if (isError && !interrupted) {
    events.push(
      emit(ctx, "runtime.error", {
        message: errorMessage ?? subtype,
        class: "provider_error",
        detail: { subtype, errors: msg.errors, stopReason: msg.stop_reason },
      }),
    );
  }
  events.push(...closeTurnContents(ctx, interrupted ? "interrupted" : "turn ended"));
  const usage = tokenUsageOf(msg.usage);
  const cost = num(msg.total_cost_usd);
  const stopReason = msg.stop_reason === null ? null : str(msg.stop_reason);
  events.push(
    emit(ctx, "turn.completed", {
      state: interrupted ? "interrupted" : isError ? "failed" : "completed",
      stopReason,
      usage,
      modelUsage: isObject(msg.modelUsage) ? msg.modelUsage : undefined,
      totalCostUsd: cost,
      errorMessage,
    }),
  );
  state.turnId = undefined;
  state.turnThread = undefined;
  state.interruptRequested = false;
  return events;
}

/** `out` interrupt_request: the turn's coming result completes it as `interrupted`, not failed. */
export function mapInterruptRequest(ctx: ClaudeContext): RuntimeEvent[] {
  ctx.state.interruptRequested = ctx.state.turnId !== undefined;
  const reason = str(ctx.msg.reason);
  return [
    emit(
      ctx,
      "provider.event",
      reason === undefined ? { name: "interrupt_request" } : { name: "interrupt_request", summary: reason },
    ),
  ];
}

/** Items left open when a turn ends: streamed blocks complete with what arrived, tools end as failed. */
export function closeTurnContents(ctx: ClaudeContext, reason: string): RuntimeEvent[] {
  return [...closeAllBlocks(ctx), ...abandonOpenTools(ctx, reason)];
}

/** Claude Code's own diagnostics among a result's errors (its clients hide them too); the raw keeps them. */
const DIAGNOSTIC = /^\[(ede_diagnostic|session_crash)\]/;

function errorTextOf(msg: Record<string, unknown>, subtype: string): string {
  const errors = (arr(msg.errors) ?? []).filter(
    (e): e is string => typeof e === "string" && !DIAGNOSTIC.test(e),
  );
  if (errors.length > 0) return errors.join("; ");
  const result = str(msg.result);
  if (result !== undefined && result.length > 0) return result;
  const reason = str(asObject(msg)?.terminal_reason);
  return reason === undefined ? subtype : `${subtype}: ${reason}`;
}
