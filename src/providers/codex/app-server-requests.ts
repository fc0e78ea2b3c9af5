import type { ApprovalDecision, CanonicalRequestType } from "../../contracts/enums.js";
import type { EventContext } from "../../kit/event-builder.js";
import { arr, idKey, isObject, type JsonObject, own, preview, str } from "../../kit/guards.js";
import { type HandlerContext, itemKey } from "./app-server-state.js";
import { decisionOfReply } from "./approval-answers.js";

/** One ServerRequest method: its canonical request type and how to read what it asks. */
export interface CodexServerRequest {
  requestType: CanonicalRequestType;
  /** Also a `user-input.requested` (the host must supply answers, not only a decision). */
  isUserInput: boolean;
  detail(params: JsonObject): string | undefined;
  /** The native answer options, when the request lists them. */
  options?(params: JsonObject): unknown[] | undefined;
  questions?(params: JsonObject): unknown;
  /** Legacy requests name the thread as `conversationId` and no turn. */
  legacy?: boolean;
}

const commandText = (value: unknown): string | undefined =>
  str(value) ?? (arr(value)?.every((v) => typeof v === "string") ? (value as string[]).join(" ") : undefined);

/** Every ServerRequest method of Codex 0.171.0. None is typed `unknown`. */
export const CODEX_SERVER_REQUESTS: Record<string, CodexServerRequest> = {
  "item/commandExecution/requestApproval": {
    requestType: "command_execution_approval",
    isUserInput: false,
    detail: (p) => commandText(p.command) ?? str(p.reason),
    options: (p) => arr(p.availableDecisions) ?? ["accept", "acceptForSession", "decline", "cancel"],
  },
  "item/fileChange/requestApproval": {
    requestType: "file_change_approval",
    isUserInput: false,
    detail: (p) => str(p.reason) ?? str(p.grantRoot),
    options: () => ["accept", "acceptForSession", "decline", "cancel"],
  },
  "item/permissions/requestApproval": {
    requestType: "permissions_approval",
    isUserInput: false,
    detail: (p) => str(p.reason) ?? preview(p.permissions, 200),
    options: () => ["turn", "session"],
  },
  "item/tool/requestUserInput": {
    requestType: "tool_user_input",
    isUserInput: true,
    detail: (p) => {
      const first = arr(p.questions)?.[0];
      return isObject(first) ? str(first.question) : undefined;
    },
    questions: (p) => p.questions ?? [],
  },
  "mcpServer/elicitation/request": {
    requestType: "mcp_elicitation",
    isUserInput: true,
    detail: (p) => str(p.message),
    options: () => ["accept", "decline", "cancel"],
    questions: (p) => ({
      serverName: p.serverName,
      mode: p.mode,
      message: p.message,
      requestedSchema: p.requestedSchema,
      url: p.url,
    }),
  },
  "item/tool/call": {
    requestType: "dynamic_tool_call",
    isUserInput: false,
    detail: (p) => [str(p.namespace), str(p.tool)].filter((s) => s !== undefined).join("/"),
  },
  "account/chatgptAuthTokens/refresh": {
    requestType: "auth_tokens_refresh",
    isUserInput: false,
    detail: (p) => str(p.reason),
  },
  "attestation/generate": {
    requestType: "client_capability",
    isUserInput: false,
    detail: () => "attestation token",
  },
  applyPatchApproval: {
    requestType: "apply_patch_approval",
    isUserInput: false,
    legacy: true,
    detail: (p) => str(p.reason) ?? Object.keys(isObject(p.fileChanges) ? p.fileChanges : {}).join(", "),
    options: () => ["approved", "approved_for_session", "denied", "abort"],
  },
  execCommandApproval: {
    requestType: "exec_command_approval",
    isUserInput: false,
    legacy: true,
    detail: (p) => commandText(p.command) ?? str(p.reason),
    options: () => ["approved", "approved_for_session", "denied", "abort"],
  },
};

/** The ids a request is about: its thread, turn and (if it is open) the item it concerns. */
function requestContext(ctx: HandlerContext, spec: CodexServerRequest, params: JsonObject): EventContext {
  const threadKey = spec.legacy ? str(params.conversationId) : str(params.threadId);
  const turnKey = spec.legacy
    ? threadKey === undefined
      ? undefined
      : ctx.state.threads.get(threadKey)?.state.activeTurnKey
    : str(params.turnId);
  const ids = ctx.turn(threadKey, turnKey);
  const nativeItem = str(params.itemId) ?? str(params.callId);
  if (nativeItem === undefined) return ids;
  const item = ctx.state.items.get(itemKey(threadKey, nativeItem));
  return {
    ...ids,
    itemId: item?.id,
    providerRefs: { ...ids.providerRefs, providerItemId: nativeItem },
  };
}

/** A server request: `request.opened` (and `user-input.requested` when it asks for answers). */
export function mapServerRequest(ctx: HandlerContext, method: string, message: JsonObject): void {
  const spec = own(CODEX_SERVER_REQUESTS, method);
  const nativeId = idKey(message.id);
  const params = isObject(message.params) ? message.params : {};
  if (spec === undefined || nativeId === undefined) {
    ctx.warn(`unknown server request "${method}"`, { reason: "unknown-kind", kind: method });
    return;
  }
  const generation = (ctx.state.requestGenerations.get(nativeId) ?? 0) + 1;
  ctx.state.requestGenerations.set(nativeId, generation);
  const requestKey = `${nativeId}#${generation}`;
  const base = requestContext(ctx, spec, params);
  const { entry } = ctx.state.requests.open(requestKey, {
    method,
    requestType: spec.requestType,
    isUserInput: spec.isUserInput,
    threadKey: base.providerRefs?.providerThreadId,
    turnKey: base.providerRefs?.providerTurnId,
    turnId: base.turnId,
    itemId: base.itemId,
    nativeId,
  });
  ctx.state.openRequestByNativeId.set(nativeId, requestKey);
  const ids: EventContext = {
    ...base,
    requestId: entry.id,
    providerRefs: { ...base.providerRefs, providerRequestId: nativeId },
  };
  ctx.emit(
    "request.opened",
    {
      requestType: spec.requestType,
      detail: spec.detail(params),
      args: params,
      options: spec.options?.(params),
    },
    ids,
  );
  if (spec.isUserInput) ctx.emit("user-input.requested", { questions: spec.questions?.(params) ?? [] }, ids);
}

/** Closes an open request with one `request.resolved` (after `user-input.resolved` for input requests). */
function resolve(
  ctx: HandlerContext,
  nativeId: string,
  decision: ApprovalDecision,
  resolution: unknown,
  answers: unknown,
): boolean {
  const requestKey = ctx.state.openRequestByNativeId.get(nativeId);
  const open = requestKey === undefined ? undefined : ctx.state.requests.get(requestKey);
  if (requestKey === undefined || open === undefined) return false;
  const { state } = open;
  const ids: EventContext = {
    threadId: state.threadKey === undefined ? undefined : ctx.state.threads.idOf(state.threadKey),
    // As opened: a subagent's request is in its spawner's turn, not in a turn of the child's own.
    turnId: state.turnId,
    itemId: state.itemId,
    requestId: open.id,
    providerRefs: {
      providerThreadId: state.threadKey,
      providerTurnId: state.turnKey,
      providerRequestId: nativeId,
    },
  };
  if (state.isUserInput) ctx.emit("user-input.resolved", { answers: answers ?? {} }, ids);
  ctx.emit("request.resolved", { requestType: state.requestType, decision, resolution }, ids);
  ctx.state.requests.close(requestKey);
  ctx.state.openRequestByNativeId.release(nativeId);
  return true;
}

/** Our reply (`dir: "out"`) to a server request: the decision the host made. */
export function mapReplyToServerRequest(ctx: HandlerContext, message: JsonObject): boolean {
  const nativeId = idKey(message.id);
  if (nativeId === undefined) return false;
  const requestKey = ctx.state.openRequestByNativeId.get(nativeId);
  const method = requestKey === undefined ? undefined : ctx.state.requests.get(requestKey)?.state.method;
  if (method === undefined) return false;
  const decision = decisionOfReply(method, message);
  const result = isObject(message.result) ? message.result : undefined;
  const answers = result?.answers ?? result?.content;
  return resolve(ctx, nativeId, decision, message.result ?? message.error, answers);
}

/** `serverRequest/resolved`: the server's word that a request is settled; resolves it if our reply did not. */
export function mapServerRequestResolved(ctx: HandlerContext, params: JsonObject): void {
  const nativeId = idKey(params.requestId);
  if (nativeId !== undefined && resolve(ctx, nativeId, "cancel", { resolvedBy: "server" }, undefined)) return;
  ctx.emit(
    "provider.event",
    { name: "serverRequest/resolved", summary: `request ${nativeId ?? "?"} settled` },
    ctx.thread(str(params.threadId)),
  );
}
