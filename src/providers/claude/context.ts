import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent, RuntimeEventOf } from "../../contracts/events.js";
import type { RuntimeEventPayloadByType } from "../../contracts/payloads.js";
import type { EventBuilder, EventContext, PayloadInput } from "../../kit/event-builder.js";
import type { JsonObject } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import type { ClaudeState } from "./state.js";

/** What a handler gets for one record: the record, its raw, and the mapper's builder and state. */
export interface ClaudeContext {
  readonly msg: JsonObject;
  readonly raw: RuntimeEventRaw;
  readonly builder: EventBuilder;
  readonly state: ClaudeState;
}

export type ClaudeHandler = (ctx: ClaudeContext) => RuntimeEvent[];

/** Emits with the thread, the open turn, the Claude session ref and the record's raw filled in. */
export function emit<T extends RuntimeEventType>(
  ctx: ClaudeContext,
  type: T,
  payload: PayloadInput<RuntimeEventPayloadByType[T]>,
  extra: EventContext = {},
): RuntimeEventOf<T> {
  const { state } = ctx;
  return ctx.builder.emit(type, payload, {
    threadId: state.threadId,
    turnId: state.turnId,
    raw: ctx.raw,
    ...extra,
    providerRefs: { providerThreadId: state.providerSessionId, ...extra.providerRefs },
  });
}

export function toolItemId(state: ClaudeState, toolUseId: string): string {
  return state.tools.idOf(`tool:${toolUseId}`);
}

export function itemIdOf(state: ClaudeState, nativeKey: string): string {
  return mintId(state.sessionId, "item", nativeKey);
}

/** Subagent records carry the Task/Agent tool_use id that spawned them. */
export function parentItemIdOf(ctx: ClaudeContext): string | undefined {
  const parent = ctx.msg.parent_tool_use_id;
  return typeof parent === "string" && parent.length > 0 ? toolItemId(ctx.state, parent) : undefined;
}

export function scopeOf(ctx: ClaudeContext): string {
  const parent = ctx.msg.parent_tool_use_id;
  return typeof parent === "string" && parent.length > 0 ? parent : "main";
}
