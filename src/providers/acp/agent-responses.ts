import type { RuntimeErrorClass, TurnState } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { RuntimeEventPayloadByType, TokenUsage } from "../../contracts/payloads.js";
import type { EventBuilder } from "../../kit/event-builder.js";
import { idKey, isObject, type JsonObject, num, own, str } from "../../kit/guards.js";
import { malformedRecordWarning, providerEvent } from "../../kit/warnings.js";
import type { AcpSessionState, OutgoingRequest } from "./session-state.js";
import { endSubagentsOfTurn } from "./subagents.js";
import { endToolsOfTurn } from "./tool-calls.js";
import { ACP_ERROR, type AcpRpcError, errorClassOf, isRecoverableError } from "./wire.js";

export interface ResponseInput {
  state: AcpSessionState;
  b: EventBuilder;
  request: OutgoingRequest;
  /** JSON-RPC id of our request. */
  id: string;
  result: JsonObject;
  raw: RuntimeEventRaw;
}

export interface ResponseHandler {
  yields: RuntimeEventType[];
  note?: string;
  map(input: ResponseInput): RuntimeEvent[];
}

/** session/new, load, resume and fork: the session (= the canonical thread) is ready. */
function sessionReady(resume: boolean) {
  return ({ state, b, request, result, raw }: ResponseInput): RuntimeEvent[] => {
    const nativeId = idKey(result.sessionId) ?? idKey(request.params.sessionId);
    if (nativeId !== undefined) state.bindSession(nativeId);
    const events: RuntimeEvent[] = [
      b.emit(
        "session.started",
        resume ? { message: request.method, resume: { sessionId: nativeId } } : { message: request.method },
        state.context(raw),
      ),
      // Without a native session id there is no thread to name: a thread.started needs its threadId.
      nativeId === undefined
        ? malformedRecordWarning(b, request.method, "answer names no sessionId", raw, state.context(raw))
        : b.emit("thread.started", { providerThreadId: nativeId }, state.context(raw)),
      // The handshake is done: the session is ready (the kit's lifecycle takes over from here).
      b.emit("session.state.changed", { state: "ready" }, state.context(raw)),
    ];
    const config: JsonObject = {};
    if (isObject(result.modes)) config.modes = result.modes;
    if (Array.isArray(result.configOptions)) config.configOptions = result.configOptions;
    if (Object.keys(config).length > 0)
      events.push(b.emit("session.configured", { config }, state.context(raw)));
    return events;
  };
}

const TURN_STATE: Record<string, TurnState> = {
  end_turn: "completed",
  max_tokens: "completed",
  max_turn_requests: "completed",
  refusal: "completed",
  cancelled: "cancelled",
};

/** The unstable PromptResponse `usage` in canonical words. */
function promptUsage(usage: unknown): TokenUsage | undefined {
  if (!isObject(usage)) return undefined;
  const out: TokenUsage = {};
  const fields: [keyof TokenUsage, string][] = [
    ["inputTokens", "inputTokens"],
    ["outputTokens", "outputTokens"],
    ["totalTokens", "totalTokens"],
    ["reasoningOutputTokens", "thoughtTokens"],
    ["cachedInputTokens", "cachedReadTokens"],
    ["cacheWriteTokens", "cachedWriteTokens"],
  ];
  for (const [to, from] of fields) {
    const value = num(usage[from]);
    if (value !== undefined) out[to] = value;
  }
  return out;
}

/** Ends the turn of a prompt: its open text and tool items first, then exactly one `turn.completed`. */
export function endTurn(
  state: AcpSessionState,
  b: EventBuilder,
  promptId: string,
  raw: RuntimeEventRaw,
  payload: RuntimeEventPayloadByType["turn.completed"],
  /** Events that come just before the completion (built late, so sequence numbers stay in order). */
  before: () => RuntimeEvent[] = () => [],
): RuntimeEvent[] {
  const turnId = state.closeTurn(promptId);
  if (turnId === undefined) {
    return [
      ...before(),
      providerEvent(b, "session/prompt", raw, "answer to a prompt that started no turn", state.context(raw)),
    ];
  }
  const context = state.context(raw, { turnId });
  return [
    ...state.closeAllText(b, raw),
    ...endToolsOfTurn(state, b, turnId, raw),
    ...endSubagentsOfTurn(state, b, turnId, raw),
    ...before(),
    b.emit("turn.completed", payload, context),
  ];
}

function promptDone({ state, b, id, result, raw }: ResponseInput): RuntimeEvent[] {
  const stopReason = str(result.stopReason) ?? null;
  const usage = promptUsage(result.usage);
  const turnId = state.turnOfPrompt(id);
  const systemError = turnId === undefined ? undefined : state.systemErrors.release(turnId);
  if (systemError !== undefined) {
    // codex-acp ends a turn whose model failed with end_turn: the systemError thread status it sent says otherwise.
    const message = systemError.text.trim() || "the agent's thread reported a system error";
    return endTurn(
      state,
      b,
      id,
      raw,
      { state: "failed", stopReason, errorMessage: message, ...(usage === undefined ? {} : { usage }) },
      () => [
        b.emit(
          "runtime.error",
          { message, class: "provider_error", detail: { threadStatus: "systemError", stopReason } },
          state.context(raw, { turnId }),
        ),
      ],
    );
  }
  // ACP says an agent answers a cancelled prompt with `cancelled`; OpenCode 1.18 stops the turn but says
  // `end_turn`. A turn we asked to cancel and that ends without an error is cancelled (also one that finished just
  // as the cancel arrived: the host asked it to stop).
  const cancelled =
    turnId !== undefined && state.cancelRequested.release(turnId) !== undefined && stopReason === "end_turn";
  return endTurn(state, b, id, raw, {
    state: cancelled
      ? "cancelled"
      : ((stopReason === null ? undefined : own(TURN_STATE, stopReason)) ?? "completed"),
    stopReason,
    ...(usage === undefined ? {} : { usage }),
  });
}

/**
 * The class of an error whose `data.errorKind` names what failed (claude-agent-acp's convention: the Claude SDK's
 * assistant error kinds and its own session failures); undefined for a kind that says nothing more than the code.
 */
const ERROR_KIND_CLASS: Record<string, RuntimeErrorClass> = {
  authentication_failed: "permission_error",
  billing_error: "permission_error",
  invalid_request: "validation_error",
  rate_limit: "provider_error",
  server_error: "provider_error",
  overloaded: "provider_error",
  max_output_tokens: "provider_error",
  incomplete_tool_call: "provider_error",
  no_result: "provider_error",
  worker_shutdown: "transport_error",
  transport_lost: "transport_error",
};

function errorKindOf(error: AcpRpcError): string | undefined {
  return isObject(error.data) ? str(error.data.errorKind) : undefined;
}

function named(name: string, summary?: string) {
  return ({ state, b, raw }: ResponseInput): RuntimeEvent[] => [
    providerEvent(b, name, raw, summary, state.context(raw)),
  ];
}

function threadState(stateName: "closed" | "archived") {
  return ({ state, b, request, raw }: ResponseInput): RuntimeEvent[] => [
    b.emit(
      "thread.state.changed",
      { state: stateName, detail: { method: request.method } },
      state.context(raw),
    ),
  ];
}

/** Answers to the agent methods (our requests), by method: 13 in v1 plus the unstable ones. */
export const AGENT_RESPONSE_HANDLERS: Record<string, ResponseHandler> = {
  initialize: {
    yields: ["session.configured"],
    note: "protocolVersion, agentCapabilities, authMethods, agentInfo",
    map: ({ state, b, result, raw }) => [
      b.emit("session.configured", { config: result }, state.context(raw)),
    ],
  },
  authenticate: {
    yields: ["auth.status"],
    note: "an error → auth.status{error} + runtime.error(permission_error)",
    map: ({ state, b, raw }) => [b.emit("auth.status", { isAuthenticating: false }, state.context(raw))],
  },
  "session/new": {
    yields: ["session.started", "thread.started", "session.state.changed", "session.configured"],
    map: sessionReady(false),
  },
  "session/load": {
    yields: ["session.started", "thread.started", "session.state.changed", "session.configured"],
    map: sessionReady(true),
  },
  "session/resume": {
    yields: ["session.started", "thread.started", "session.state.changed", "session.configured"],
    map: sessionReady(true),
  },
  "session/prompt": {
    yields: ["turn.completed"],
    note: "stopReason → state (cancelled → cancelled, else completed); the request itself → turn.started",
    map: promptDone,
  },
  "session/cancel": {
    yields: ["provider.event", "runtime.warning"],
    note: "normally a notification; Cursor takes it as a request and answers -32601 → runtime.warning",
    map: named("session/cancel", "cancel acknowledged"),
  },
  "session/set_mode": {
    yields: ["session.configured"],
    map: ({ state, b, request, raw }) => [
      b.emit("session.configured", { config: { currentModeId: request.params.modeId } }, state.context(raw)),
    ],
  },
  "session/set_config_option": {
    yields: ["session.configured"],
    map: ({ state, b, result, raw }) => [
      b.emit("session.configured", { config: { configOptions: result.configOptions } }, state.context(raw)),
    ],
  },
  "session/list": { yields: ["provider.event"], map: named("session/list") },
  "session/delete": { yields: ["thread.state.changed"], map: threadState("closed") },
  "session/close": { yields: ["thread.state.changed"], map: threadState("closed") },
  logout: {
    yields: ["auth.status"],
    map: ({ state, b, raw }) => [
      b.emit("auth.status", { isAuthenticating: false, output: ["logged out"] }, state.context(raw)),
    ],
  },
  // unstable
  "providers/list": { yields: ["provider.event"], note: "unstable", map: named("providers/list") },
  "providers/set": { yields: ["provider.event"], note: "unstable", map: named("providers/set") },
  "providers/disable": { yields: ["provider.event"], note: "unstable", map: named("providers/disable") },
  "auth/status": {
    yields: ["auth.status"],
    note: "unstable",
    map: ({ state, b, result, raw }) => [
      b.emit("auth.status", { isAuthenticating: result.state === "authenticating" }, state.context(raw)),
    ],
  },
  "session/fork": {
    yields: ["session.started", "thread.started", "session.state.changed", "session.configured"],
    note: "unstable: a forked driver's handshake opens the fork (its own new session) with it",
    map: sessionReady(false),
  },
  "session/archive": { yields: ["thread.state.changed"], note: "unstable", map: threadState("archived") },
  "session/unarchive": {
    yields: ["provider.event"],
    note: "unstable; not a thread state: `active` is the thread's state while a turn runs",
    map: named("session/unarchive"),
  },
  "session/status": { yields: ["provider.event"], note: "unstable", map: named("session/status") },
  "session/set_title": {
    yields: ["thread.metadata.updated"],
    note: "unstable",
    map: ({ state, b, request, raw }) => {
      const title = str(request.params.title);
      return [
        b.emit("thread.metadata.updated", title === undefined ? {} : { name: title }, state.context(raw)),
      ];
    },
  },
  "mcp/message": { yields: ["provider.event"], note: "unstable: MCP over ACP", map: named("mcp/message") },
};

export interface ErrorInput {
  state: AcpSessionState;
  b: EventBuilder;
  request: OutgoingRequest;
  id: string;
  error: AcpRpcError;
  raw: RuntimeEventRaw;
}

/** §5.4: an error answer to one of our requests. */
export function mapAgentError({ state, b, request, id, error, raw }: ErrorInput): RuntimeEvent[] {
  const errorKind = errorKindOf(error);
  const detail = {
    method: request.method,
    code: error.code,
    data: error.data,
    ...(errorKind === undefined ? {} : { errorKind }),
  };
  const message = `${request.method} failed: ${error.message}`;
  const errorClass = own(ERROR_KIND_CLASS, errorKind) ?? errorClassOf(error.code);
  const context = state.context(raw);
  switch (request.method) {
    case "session/cancel":
      return [
        b.emit(
          "runtime.warning",
          { message, detail: { ...detail, reason: "cancel-unsupported", fallback: "process-interrupt" } },
          context,
        ),
      ];
    case "session/prompt": {
      // A failed prompt ends its turn: unknown session (-32603 / -32002), invalid params, or anything else.
      const cancelled = error.code === ACP_ERROR.requestCancelled;
      return endTurn(
        state,
        b,
        id,
        raw,
        cancelled
          ? { state: "cancelled", stopReason: "cancelled", errorMessage: error.message }
          : { state: "failed", errorMessage: error.message },
        () => [b.emit("runtime.error", { message, class: errorClass, detail }, context)],
      );
    }
    case "authenticate":
      return [
        b.emit("auth.status", { isAuthenticating: false, error: error.message }, context),
        b.emit("runtime.error", { message, class: "permission_error", detail }, context),
      ];
    case "initialize":
    case "session/new":
    case "session/load":
    case "session/resume":
    case "session/fork":
      return [
        b.emit("runtime.error", { message, class: errorClass, detail }, context),
        b.emit("session.state.changed", { state: "error", reason: error.message }, context),
      ];
    default:
      if (isRecoverableError(error.code)) {
        return [
          b.emit("runtime.warning", { message, detail: { ...detail, reason: "unsupported" } }, context),
        ];
      }
      return [b.emit("runtime.error", { message, class: errorClass, detail }, context)];
  }
}
