import type { RuntimeErrorClass } from "../../contracts/enums.js";
import { idKey, isObject, type JsonObject, num, own, str } from "../../kit/guards.js";
import type { HandlerContext, OutgoingRequest } from "./app-server-state.js";

/**
 * Replies to OUR requests (initialize, thread/start|resume|fork, turn/start, ...). Our request itself is recorded
 * as a `dir: "out"` line that only correlates: its reply carries the state (thread id, model, turn id).
 */
type ResponseHandler = (ctx: HandlerContext, result: JsonObject, request: OutgoingRequest) => void;

/** The client requests whose replies feed state; any other reply becomes `provider.event`. */
export const CODEX_RESPONSE_KINDS = [
  "initialize",
  "thread/start",
  "thread/resume",
  "thread/fork",
  "turn/start",
];

/** A resumed or forked thread's listed turns ran in an earlier process: none of them is live in this one. */
function markHistory(ctx: HandlerContext, turns: unknown): void {
  if (!Array.isArray(turns)) return;
  for (const turn of turns) {
    const turnKey = isObject(turn) ? str(turn.id) : undefined;
    if (turnKey !== undefined && turnKey.length > 0 && ctx.state.turns.get(turnKey) === undefined)
      ctx.state.historyTurns.set(turnKey, true);
  }
}

function threadOpened(ctx: HandlerContext, result: JsonObject, request: OutgoingRequest): void {
  const thread = isObject(result.thread) ? result.thread : {};
  const threadKey = str(thread.id);
  const resumed = request.method !== "thread/start";
  if (threadKey !== undefined && threadKey.length > 0) {
    ctx.state.subagentThreads.release(threadKey);
    ctx.state.ownThreads.set(threadKey, true);
  }
  if (!ctx.state.sessionStarted) {
    ctx.state.sessionStarted = true;
    ctx.emit("session.started", {
      message: `codex ${request.method}`,
      resume: resumed ? { method: request.method, providerThreadId: threadKey } : undefined,
    });
  }
  const ids = ctx.thread(threadKey);
  if (resumed) markHistory(ctx, thread.turns);
  const state = threadKey === undefined ? undefined : ctx.state.threads.get(threadKey)?.state;
  if (state !== undefined) {
    state.model = str(result.model) ?? str(thread.model) ?? state.model;
    state.effort = str(result.reasoningEffort) ?? state.effort;
  }
  const config: JsonObject = {};
  for (const key of [
    "model",
    "modelProvider",
    "cwd",
    "approvalPolicy",
    "sandbox",
    "reasoningEffort",
    "serviceTier",
  ]) {
    if (result[key] !== undefined && result[key] !== null) config[key] = result[key];
  }
  ctx.emit("session.configured", { config }, ids);
  ctx.emit("session.state.changed", { state: "ready" }, ids);
}

const RESPONSES: Record<string, ResponseHandler> = {
  initialize(ctx, result) {
    ctx.emit("session.configured", { config: result });
  },
  "thread/start": threadOpened,
  "thread/resume": threadOpened,
  "thread/fork": threadOpened,
  /**
   * The turn is accepted; `turn/started` opens it. The session's `running` follows from that turn.started (kit
   * state semantics): reported here, before the turn exists, it would contradict the lifecycle.
   */
  "turn/start"(ctx, result, request) {
    const turn = isObject(result.turn) ? result.turn : {};
    const params = isObject(request.params) ? request.params : {};
    const ids = ctx.thread(str(params.threadId));
    ctx.emit(
      "provider.event",
      { name: "turn/start", summary: "turn accepted" },
      { ...ids, providerRefs: { ...ids.providerRefs, providerTurnId: str(turn.id) } },
    );
  },
};

function errorClass(code: number | undefined): RuntimeErrorClass {
  if (code === -32600 || code === -32601 || code === -32602) return "validation_error";
  return "provider_error";
}

/** An inbound response: routed by the method of our request with the same id. */
export function mapResponse(ctx: HandlerContext, message: JsonObject): void {
  const id = idKey(message.id);
  const request = id === undefined ? undefined : ctx.state.outgoing.release(id);
  if (request === undefined) {
    ctx.warn(`response to an unknown request id ${id ?? "?"}`, { reason: "uncorrelated-response" });
    return;
  }
  const params = isObject(request.params) ? request.params : {};
  const threadIds = ctx.thread(str(params.threadId));
  if (isObject(message.error)) {
    const code = num(message.error.code);
    ctx.emit(
      "runtime.error",
      {
        message: `${request.method} failed: ${str(message.error.message) ?? "error"}`,
        class: errorClass(code),
        detail: { method: request.method, code, data: message.error.data },
      },
      threadIds,
    );
    return;
  }
  const result = isObject(message.result) ? message.result : {};
  const handler = own(RESPONSES, request.method);
  if (handler !== undefined) handler(ctx, result, request);
  else ctx.emit("provider.event", { name: request.method, summary: "reply" }, threadIds);
}
