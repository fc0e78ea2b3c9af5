import type { ApprovalDecision, CanonicalRequestType } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { EventBuilder } from "../../kit/event-builder.js";
import { int, isObject, type JsonObject, str } from "../../kit/guards.js";
import { providerEvent } from "../../kit/warnings.js";
import { decisionOfOption } from "./permission-options.js";
import type { AcpSessionState, InboundRequest } from "./session-state.js";
import { requestTypeOfToolKind, toolItemIdOf } from "./tool-calls.js";
import { commandLine, fillDiffs } from "./tool-facts.js";

export interface ClientMethodInput {
  state: AcpSessionState;
  b: EventBuilder;
  method: string;
  params: JsonObject;
  raw: RuntimeEventRaw;
}

/**
 * A method the agent calls on us (a request we must answer, or a notification). A request opens a canonical
 * request (`request.opened`, plus `user-input.requested` when it asks the user); our answer resolves it.
 */
export interface ClientMethodHandler {
  yields: RuntimeEventType[];
  note?: string;
  /** The canonical request a call of this method opens (requests only). */
  requestType?: (params: JsonObject) => CanonicalRequestType;
  /** The canonical request, when it depends on what the session knows (the tool call it belongs to). */
  requestTypeIn?: (state: AcpSessionState, params: JsonObject) => CanonicalRequestType;
  asksUser?: boolean;
  detail?: (params: JsonObject) => string | undefined;
  /** What opening the request tells the mapper (no events of its own). */
  opened?: (state: AcpSessionState, params: JsonObject) => void;
  /** Events besides the request (for notifications: all of them). */
  events?: (input: ClientMethodInput) => RuntimeEvent[];
  /** Our answer as a canonical decision. Default: a result accepts, an error declines. */
  decide?: (request: InboundRequest, result: JsonObject) => ApprovalDecision;
  /** What our (successful) answer tells the mapper, e.g. the id of a terminal we created. */
  answered?: (state: AcpSessionState, request: InboundRequest, result: JsonObject) => void;
}

const capability = (what: (params: JsonObject) => string | undefined): ClientMethodHandler => ({
  yields: ["request.opened", "request.resolved"],
  note: "a client capability the agent uses; our answer resolves it",
  requestType: () => "client_capability",
  detail: what,
});

/**
 * The terminals we run for the agent: `terminal/create` gives the command and cwd (keyed by the terminalId of
 * our answer), `terminal/wait_for_exit` and `terminal/output` the exit code. A tool's `terminal` content refers
 * to them, so its command item can name what ran.
 */
function terminalCreated(state: AcpSessionState, request: InboundRequest, result: JsonObject): void {
  const terminalId = str(result.terminalId);
  if (terminalId === undefined) return;
  state.terminals.set(terminalId, {
    command: commandLine(request.params),
    cwd: str(request.params.cwd),
    exitCode: undefined,
  });
}

function terminalExited(state: AcpSessionState, request: InboundRequest, result: JsonObject): void {
  const terminalId = str(request.params.terminalId);
  const terminal = terminalId === undefined ? undefined : state.terminals.get(terminalId);
  if (terminal === undefined) return;
  const status = isObject(result.exitStatus) ? result.exitStatus : result;
  terminal.exitCode = int(status.exitCode) ?? terminal.exitCode;
}

const pathOf = (params: JsonObject) => str(params.path);
const terminalOf = (params: JsonObject) => str(params.terminalId);

function permissionDecision(request: InboundRequest, result: JsonObject): ApprovalDecision {
  const outcome = isObject(result.outcome) ? result.outcome : {};
  if (outcome.outcome !== "selected") return "cancel";
  const optionId = str(outcome.optionId);
  return (optionId === undefined ? undefined : decisionOfOption(request.options, optionId)) ?? "accept";
}

function elicitationDecision(_request: InboundRequest, result: JsonObject): ApprovalDecision {
  const action = str(result.action);
  return action === "accept" ? "accept" : action === "decline" ? "decline" : "cancel";
}

/**
 * An elicitation tied to a tool call that is not an MCP tool's is the agent asking the user through its own
 * question tool; ACP also ties an MCP server's elicitation to the MCP tool call that raised it, or to none.
 */
function elicitationRequestType(state: AcpSessionState, params: JsonObject): CanonicalRequestType {
  const toolCallId = str(params.toolCallId);
  if (toolCallId === undefined) return "mcp_elicitation";
  const tool = state.tools.get(`tool:${toolCallId}`)?.state;
  return tool?.itemType === "mcp_tool_call" ? "mcp_elicitation" : "tool_user_input";
}

/** The v1 client methods (and the unstable ones), by method. */
export const CLIENT_METHOD_HANDLERS: Record<string, ClientMethodHandler> = {
  "session/request_permission": {
    yields: ["request.opened", "request.resolved"],
    note: "requestType from the tool's kind; options kept; our optionId's kind gives the decision",
    requestType: (params) =>
      requestTypeOfToolKind(isObject(params.toolCall) ? params.toolCall.kind : undefined),
    detail: (params) => (isObject(params.toolCall) ? str(params.toolCall.title) : undefined),
    opened: (state, params) => {
      // OpenCode sends a file edit's diff only in the request's toolCall: it fills the tool's facts where its own
      // updates gave none (shown with the item's next update); the updates' own diffs are kept.
      const update = isObject(params.toolCall) ? params.toolCall : undefined;
      const toolCallId = str(update?.toolCallId);
      const tool = toolCallId === undefined ? undefined : state.tools.get(`tool:${toolCallId}`);
      if (update !== undefined && tool !== undefined) fillDiffs(tool.state.facts, update);
    },
    decide: permissionDecision,
  },
  "session/update": { yields: [], note: "dispatched by sessionUpdate kind (group `update`)" },
  "fs/read_text_file": capability(pathOf),
  "fs/write_text_file": capability(pathOf),
  "terminal/create": {
    ...capability((params) => {
      const line = commandLine(params);
      return Array.isArray(line) ? line.join(" ") : line;
    }),
    answered: terminalCreated,
  },
  "terminal/output": { ...capability(terminalOf), answered: terminalExited },
  "terminal/release": capability(terminalOf),
  "terminal/wait_for_exit": { ...capability(terminalOf), answered: terminalExited },
  "terminal/kill": capability(terminalOf),
  "elicitation/create": {
    yields: ["request.opened", "user-input.requested", "user-input.resolved", "request.resolved"],
    note:
      "tied to a tool call of the agent's own (its question tool: claude-agent-acp's AskUserQuestion, codex-acp's " +
      "request_user_input) → tool_user_input; one from an MCP server (no tool call, or an MCP tool's) → " +
      "mcp_elicitation; the form's typed content is the answer",
    requestType: () => "mcp_elicitation",
    requestTypeIn: elicitationRequestType,
    asksUser: true,
    detail: (params) => str(params.message),
    decide: elicitationDecision,
  },
  "elicitation/complete": {
    yields: ["provider.event"],
    note: "notification: a URL-mode elicitation finished",
    events: ({ state, b, params, raw }) => [
      providerEvent(b, "elicitation/complete", raw, str(params.elicitationId), state.context(raw)),
    ],
  },
  "$/cancel_request": {
    yields: ["provider.event"],
    note: "protocol notification: the agent withdrew a request (our answer still resolves it)",
    events: ({ state, b, params, raw }) => [
      providerEvent(
        b,
        "$/cancel_request",
        raw,
        str(params.requestId) ?? String(params.requestId),
        state.context(raw),
      ),
    ],
  },
  // unstable
  "mcp/message": { ...capability((params) => str(params.method)), note: "unstable: MCP over ACP" },
  "auth/status_update": {
    yields: ["auth.status"],
    note: "unstable notification",
    events: ({ state, b, params, raw }) => [
      b.emit("auth.status", { isAuthenticating: params.state === "authenticating" }, state.context(raw)),
    ],
  },
  // extensions
  "_auth/status_update": {
    yields: ["auth.status"],
    note:
      "extension of both maintained adapters: {authStatus: {kind, label, detail}} (how the agent is logged in) " +
      "→ auth.status, the label and detail as output",
    events: ({ state, b, params, raw }) => {
      const status = isObject(params.authStatus) ? params.authStatus : {};
      const output = [str(status.label), str(status.detail)].filter(
        (line): line is string => line !== undefined && line.length > 0,
      );
      return [
        b.emit(
          "auth.status",
          { isAuthenticating: false, ...(output.length === 0 ? {} : { output }) },
          state.context(raw),
        ),
      ];
    },
  },
};

/** Opens the canonical request of an inbound request. */
export function openInboundRequest(
  input: ClientMethodInput,
  handler: ClientMethodHandler,
  jsonRpcId: string,
): RuntimeEvent[] {
  const { state, b, method, params, raw } = input;
  const requestType = handler.requestTypeIn?.(state, params) ?? handler.requestType?.(params) ?? "unknown";
  const asksUser = handler.asksUser === true;
  const requestId = state.openInbound(jsonRpcId, {
    method,
    requestType,
    options: Array.isArray(params.options) ? params.options : [],
    isUserInput: asksUser,
    params,
  });
  const toolCallId = isObject(params.toolCall) ? str(params.toolCall.toolCallId) : str(params.toolCallId);
  const context = state.context(raw, {
    requestId,
    itemId: toolItemIdOf(state, toolCallId),
    providerRefs: { providerRequestId: jsonRpcId, providerItemId: toolCallId },
  });
  handler.opened?.(state, params);
  const detail = handler.detail?.(params);
  const events = handler.events?.(input) ?? [];
  events.push(
    b.emit(
      "request.opened",
      {
        requestType,
        ...(detail === undefined || detail.length === 0 ? {} : { detail }),
        args: params,
        ...(Array.isArray(params.options) ? { options: params.options } : {}),
      },
      context,
    ),
  );
  if (asksUser) events.push(b.emit("user-input.requested", { questions: params }, context));
  return events;
}

/** Our answer (`out` response or error) to an inbound request: `request.resolved` with the canonical decision. */
export function resolveInboundRequest(
  state: AcpSessionState,
  b: EventBuilder,
  handler: ClientMethodHandler | undefined,
  jsonRpcId: string,
  answer: { result: JsonObject } | { error: JsonObject },
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const open = state.inboundFor(jsonRpcId);
  if (open === undefined) {
    return [
      b.emit(
        "runtime.warning",
        { message: `answer to unknown agent request ${jsonRpcId}`, detail: { reason: "unmatched-response" } },
        state.context(raw),
      ),
    ];
  }
  state.closeInbound(jsonRpcId);
  const { request } = open;
  const decision: ApprovalDecision =
    "error" in answer ? "decline" : (handler?.decide?.(request, answer.result) ?? "accept");
  if ("result" in answer) handler?.answered?.(state, request, answer.result);
  const context = state.context(raw, {
    requestId: open.id,
    turnId: request.turnId,
    providerRefs: { providerRequestId: jsonRpcId },
  });
  const events: RuntimeEvent[] = [];
  if (request.isUserInput) {
    const answers = "result" in answer ? (answer.result.content ?? answer.result.answers ?? {}) : {};
    events.push(b.emit("user-input.resolved", { answers }, context));
  }
  events.push(
    b.emit(
      "request.resolved",
      {
        requestType: request.requestType,
        decision,
        resolution: "error" in answer ? answer.error : answer.result,
      },
      context,
    ),
  );
  return events;
}
