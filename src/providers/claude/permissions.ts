/**
 * Permission calls (`canUseTool`), recorded by the driver as `permission_request` (in) and
 * `permission_decision` (out) records (see records.ts), plus Claude's own `system:permission_denied`.
 * AskUserQuestion goes through the same callback: it becomes `user-input.requested` / `user-input.resolved`.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, isObject, str } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import { type ClaudeContext, emit, toolItemId } from "./context.js";
import type { RequestState } from "./state.js";
import { markToolDeclined } from "./tool-items.js";
import { QUESTION_TOOL, requestTypeOfTool } from "./tool-kinds.js";
import { ensureTurn } from "./turn-start.js";

/** The answers a Claude permission request accepts, as offered to the host. */
export function permissionOptions(suggestions: unknown[] | undefined): unknown[] {
  return [
    { decision: "accept", behavior: "allow" },
    { decision: "acceptForSession", behavior: "allow", updatedPermissions: suggestions ?? [] },
    { decision: "decline", behavior: "deny" },
    { decision: "cancel", behavior: "deny", interrupt: true },
  ];
}

/** A structured question of AskUserQuestion: `id` is the question text, the key Claude's answers use. */
export interface ClaudeQuestion {
  id: string;
  header?: string;
  question: string;
  options: Array<{ label: string; description?: string }>;
  multiSelect: boolean;
}

export function questionsOf(input: unknown): ClaudeQuestion[] {
  const questions = arr(asObject(input)?.questions) ?? [];
  return questions.filter(isObject).map((q, index) => {
    const question = str(q.question) ?? `question ${index + 1}`;
    const header = str(q.header);
    return {
      id: question,
      ...(header === undefined ? {} : { header }),
      question,
      options: (arr(q.options) ?? []).filter(isObject).map((option) => {
        const description = str(option.description);
        return { label: str(option.label) ?? "", ...(description === undefined ? {} : { description }) };
      }),
      multiSelect: q.multiSelect === true,
    };
  });
}

export function mapPermissionRequest(ctx: ClaudeContext): RuntimeEvent[] {
  const { msg } = ctx;
  const requestKey = str(msg.requestKey);
  const toolName = str(msg.toolName);
  if (requestKey === undefined || toolName === undefined)
    return [
      emit(ctx, "runtime.warning", {
        message: "malformed permission_request: no requestKey or toolName",
        detail: { reason: "malformed-record" },
      }),
    ];
  const events = ensureTurn(ctx);
  const toolUseId = str(msg.toolUseID);
  const open = openRequest(ctx, requestKey, toolName, toolUseId);
  const ids = requestIds(open, requestKey);
  const suggestions = arr(msg.suggestions);
  const { type: _type, requestKey: _key, ...args } = msg;
  events.push(
    emit(
      ctx,
      "request.opened",
      {
        requestType: open.requestType,
        detail: detailOf(msg, toolName),
        args,
        options: permissionOptions(suggestions),
      },
      ids,
    ),
  );
  if (open.isQuestion)
    events.push(emit(ctx, "user-input.requested", { questions: questionsOf(msg.input) }, ids));
  return events;
}

export function mapPermissionDecision(ctx: ClaudeContext): RuntimeEvent[] {
  const { msg, state } = ctx;
  const requestKey = str(msg.requestKey) ?? "";
  const open = state.requests.get(requestKey);
  if (open === undefined)
    return [
      emit(ctx, "provider.event", {
        name: "permission_decision",
        summary: "for a request already resolved or never opened",
      }),
    ];
  const decision = str(msg.decision) ?? "cancel";
  return resolveRequest(
    ctx,
    requestKey,
    open,
    decision,
    { result: msg.result, reason: msg.reason },
    asObject(msg.answers) ?? {},
  );
}

/** Requests still open when their run ended without deciding them: cancelled, with the reason. */
export function cancelOpenRequests(ctx: ClaudeContext, reason: string): RuntimeEvent[] {
  const { state } = ctx;
  const events: RuntimeEvent[] = [];
  for (const [requestKey, open] of [...state.requests.entries()]) {
    state.requests.release(requestKey);
    if (open.toolUseId !== undefined) state.requestByTool.release(open.toolUseId);
    const ids = requestIds(open, requestKey);
    if (open.isQuestion) events.push(emit(ctx, "user-input.resolved", { answers: {} }, ids));
    events.push(
      emit(
        ctx,
        "request.resolved",
        { requestType: open.requestType, decision: "cancel", resolution: { reason } },
        ids,
      ),
    );
  }
  return events;
}

/** `system:permission_denied`: Claude refused a tool on its own (rule or mode), or after our decline. */
export function mapPermissionDenied(ctx: ClaudeContext): RuntimeEvent[] {
  const { msg, state } = ctx;
  const toolUseId = str(msg.tool_use_id);
  const resolution = {
    message: msg.message,
    decisionReason: msg.decision_reason,
    decisionReasonType: msg.decision_reason_type,
  };
  const openKey = toolUseId === undefined ? undefined : state.requestByTool.get(toolUseId);
  const open = openKey === undefined ? undefined : state.requests.get(openKey);
  if (openKey !== undefined && open !== undefined)
    return resolveRequest(ctx, openKey, open, "decline", resolution, {});
  // No request was opened (Claude denied without asking): one that opens and resolves at once.
  const events = ensureTurn(ctx);
  const requestKey = `denied:${toolUseId ?? str(msg.uuid) ?? state.turnCount}`;
  const created = openRequest(ctx, requestKey, str(msg.tool_name) ?? "unknown", toolUseId);
  events.push(
    emit(
      ctx,
      "request.opened",
      { requestType: created.requestType, detail: str(msg.message), args: { toolName: msg.tool_name } },
      requestIds(created, requestKey),
    ),
    ...resolveRequest(ctx, requestKey, created, "decline", resolution, {}),
  );
  return events;
}

function openRequest(
  ctx: ClaudeContext,
  requestKey: string,
  toolName: string,
  toolUseId: string | undefined,
): RequestState {
  const { state } = ctx;
  const open: RequestState = {
    requestId: mintId(state.sessionId, "request", requestKey),
    requestType: requestTypeOfTool(toolName),
    isQuestion: toolName === QUESTION_TOOL,
    ...(toolUseId === undefined ? {} : { toolUseId }),
    ...(toolUseId !== undefined && knownTool(ctx, toolUseId) ? { itemId: toolItemId(state, toolUseId) } : {}),
  };
  state.requests.set(requestKey, open);
  if (toolUseId !== undefined) state.requestByTool.set(toolUseId, requestKey);
  return open;
}

/** Only link a request to a tool item the stream has opened (never to an id nobody announced). */
function knownTool(ctx: ClaudeContext, toolUseId: string): boolean {
  return ctx.state.tools.isOpen(`tool:${toolUseId}`) || ctx.state.finishedTools.has(toolUseId);
}

function resolveRequest(
  ctx: ClaudeContext,
  requestKey: string,
  open: RequestState,
  decision: string,
  resolution: unknown,
  answers: Record<string, unknown>,
): RuntimeEvent[] {
  const { state } = ctx;
  state.requests.release(requestKey);
  if (open.toolUseId !== undefined) state.requestByTool.release(open.toolUseId);
  if (decision === "decline" || decision === "cancel") markToolDeclined(ctx, open.toolUseId);
  const ids = requestIds(open, requestKey);
  const events: RuntimeEvent[] = [];
  if (open.isQuestion) events.push(emit(ctx, "user-input.resolved", { answers }, ids));
  events.push(emit(ctx, "request.resolved", { requestType: open.requestType, decision, resolution }, ids));
  return events;
}

function requestIds(open: RequestState, requestKey: string) {
  return {
    requestId: open.requestId,
    ...(open.itemId === undefined ? {} : { itemId: open.itemId }),
    providerRefs: { providerRequestId: requestKey, providerItemId: open.toolUseId },
  };
}

/** What a request is about, in a line: the command, the file, else the tool. */
export function detailOf(msg: Record<string, unknown>, toolName: string): string {
  const input = asObject(msg.input);
  const command = str(input?.command);
  if (command !== undefined) return command;
  const path = str(input?.file_path) ?? str(msg.blockedPath);
  if (path !== undefined) return `${toolName} ${path}`;
  return str(msg.title) ?? str(msg.description) ?? toolName;
}
