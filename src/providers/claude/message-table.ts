/**
 * The registry: native kind (`type`, or `type:subtype` for system and result messages) → handler and the
 * canonical types it yields. Coverage is listed from these tables, and the coverage test compares them with the
 * SDKMessage union of the installed SDK's type declarations.
 */
import type { RuntimeEventType } from "../../contracts/event-types.js";
import { arr, num, str } from "../../kit/guards.js";
import type { ClaudeHandler } from "./context.js";
import { mapPermissionDecision, mapPermissionDenied, mapPermissionRequest } from "./permissions.js";
import { INTERRUPT_REQUEST, PERMISSION_DECISION, PERMISSION_REQUEST } from "./records.js";
import { mapAssistantSnapshot, mapStreamEvent } from "./stream-blocks.js";
import * as sys from "./system-messages.js";
import { mapInterruptRequest, mapResult } from "./turns.js";
import { mapHostPrompt, mapUserMessage } from "./user-messages.js";

export interface KindRow {
  group: "message" | "system" | "result" | "permission" | "host";
  yields: RuntimeEventType[];
  handle: ClaudeHandler;
  note?: string;
}

const ITEM: RuntimeEventType[] = ["item.started", "item.updated", "item.completed"];
const RESULT: KindRow = {
  group: "result",
  yields: ["runtime.error", "item.completed", "turn.completed"],
  handle: mapResult,
  note: "turn.completed with usage, modelUsage, totalCostUsd, stopReason; errors (and is_error) add runtime.error and a failed turn",
};
const result = (note?: string): KindRow =>
  note === undefined ? RESULT : { ...RESULT, note: `${RESULT.note}; ${note}` };
const system = (yields: RuntimeEventType[], handle: ClaudeHandler, note?: string): KindRow => ({
  group: "system",
  yields,
  handle,
  ...(note === undefined ? {} : { note }),
});
const info = (name: string, summarize: (msg: Record<string, unknown>) => string | undefined, note?: string) =>
  system(["provider.event"], sys.providerEventOf(name, summarize), note);

/** Every `in` kind of 0.2.62 and 0.3.332, plus the driver's permission envelope. */
export const CLAUDE_IN_KINDS: Record<string, KindRow> = {
  assistant: {
    group: "message",
    yields: ["content.delta", ...ITEM, "runtime.error", "runtime.warning"],
    handle: mapAssistantSnapshot,
    note: "snapshot reconciled with streamed blocks by identity (tool_use id; message id + kind + text prefix); a missing tail is one last delta; unstreamed blocks become whole items",
  },
  user: {
    group: "message",
    yields: ["item.started", "item.completed", "content.delta", "turn.plan.updated"],
    handle: mapUserMessage,
    note: "tool_result → tool item.completed with data.output and details (result or error; file diffs from tool_use_result.structuredPatch, Write create/update) (Bash also content.delta command_output); text → user_message item with details.text (isReplay included); parent_tool_use_id → parentItemId",
  },
  stream_event: {
    group: "message",
    yields: [
      "turn.started",
      "item.started",
      "item.updated",
      "content.delta",
      "item.completed",
      "provider.event",
      "runtime.warning",
    ],
    handle: mapStreamEvent,
    note: "text/thinking deltas → content.delta; tool_use/server_tool_use/mcp_tool_use → item.started, input_json_delta accumulated until content_block_stop (item.updated); message_start/message_delta/message_stop, input JSON and signature/citations deltas change no state and show as provider.event (stream_event:<type>:<delta>)",
  },
  "result:success": result(),
  "result:error_during_execution": result(),
  "result:error_max_turns": result(),
  "result:error_max_budget_usd": result(),
  "result:error_max_structured_output_retries": result(),
  "system:init": system(["session.started", "thread.started", "session.configured"], sys.mapInit),
  "system:status": system(["session.state.changed", "runtime.warning"], sys.mapStatus),
  "system:compact_boundary": system(["thread.state.changed"], sys.mapCompactBoundary),
  "system:api_retry": system(
    ["runtime.warning"],
    sys.mapApiRetry,
    "retry detail: attempt, maxRetries, retryDelayMs, errorStatus",
  ),
  "system:control_request_progress": info("system:control_request_progress", (m) =>
    `${str(m.status) ?? ""} ${str(m.request_id) ?? ""}`.trim(),
  ),
  "system:model_refusal_fallback": system(["model.rerouted"], sys.mapModelRefusalFallback),
  "system:model_refusal_no_fallback": system(["runtime.error"], sys.mapModelRefusal),
  "system:local_command_output": info("system:local_command_output", (m) => str(m.content)),
  "system:hook_started": system(["hook.started"], sys.mapHookStarted),
  "system:hook_progress": system(["hook.progress"], sys.mapHookProgress),
  "system:hook_response": system(["hook.completed"], sys.mapHookResponse),
  "system:plugin_install": info(
    "system:plugin_install",
    (m) => `${str(m.name) ?? "plugin"} ${str(m.status) ?? ""}${str(m.error) ? `: ${str(m.error)}` : ""}`,
  ),
  tool_progress: { group: "message", yields: ["tool.progress"], handle: sys.mapToolProgress },
  auth_status: { group: "message", yields: ["auth.status"], handle: sys.mapAuthStatus },
  "system:task_notification": system(["task.completed"], sys.mapTaskNotification),
  "system:task_started": system(
    ["task.started"],
    sys.mapTaskStarted,
    "parentItemId = the Task/Agent item of tool_use_id",
  ),
  "system:task_updated": system(["task.progress"], sys.mapTaskUpdated),
  "system:task_progress": system(["task.progress"], sys.mapTaskProgress),
  "system:background_tasks_changed": info(
    "system:background_tasks_changed",
    (m) => `${arr(m.tasks)?.length ?? 0} background tasks`,
  ),
  "system:thinking_tokens": info(
    "system:thinking_tokens",
    (m) => `~${num(m.estimated_tokens) ?? 0} thinking tokens`,
  ),
  "system:session_state_changed": system(
    ["session.state.changed"],
    sys.mapSessionStateChanged,
    "idle → ready, running → running, requires_action → waiting",
  ),
  "system:worker_shutting_down": system(["session.state.changed"], sys.mapWorkerShuttingDown),
  "system:commands_changed": system(["session.configured"], sys.mapCommandsChanged),
  "system:notification": info("system:notification", (m) => str(m.text)),
  "system:files_persisted": system(["files.persisted"], sys.mapFilesPersisted),
  tool_use_summary: { group: "message", yields: ["tool.summary"], handle: sys.mapToolUseSummary },
  "system:memory_recall": info(
    "system:memory_recall",
    (m) => `${arr(m.memories)?.length ?? 0} memories (${str(m.mode) ?? ""})`,
  ),
  rate_limit_event: { group: "message", yields: ["account.rate-limits.updated"], handle: sys.mapRateLimit },
  "system:elicitation_complete": info("system:elicitation_complete", (m) =>
    `${str(m.mcp_server_name) ?? ""} ${str(m.elicitation_id) ?? ""}`.trim(),
  ),
  "system:permission_denied": system(
    ["request.opened", "request.resolved", "user-input.resolved"],
    mapPermissionDenied,
    "resolves the open request of the tool as decline; with none open, a request that opens and resolves at once",
  ),
  prompt_suggestion: {
    group: "message",
    yields: ["provider.event"],
    handle: sys.providerEventOf("prompt_suggestion", (m) => str(m.suggestion)),
  },
  "system:mirror_error": system(["runtime.warning"], sys.mapMirrorError),
  "system:informational": system(["runtime.warning", "provider.event"], sys.mapInformational),
  conversation_reset: {
    group: "message",
    yields: ["thread.state.changed"],
    handle: sys.mapConversationReset,
  },
  "system:session_writes_lost": system(["runtime.warning"], sys.mapSessionWritesLost),
  command_lifecycle: {
    group: "message",
    yields: ["provider.event"],
    handle: sys.providerEventOf("command_lifecycle", (m) => str(m.state)),
    note: "not in the SDKMessage union: Claude Code 2.1 reports each host prompt's queue state (capability msg_lifecycle_v1)",
  },
  [PERMISSION_REQUEST]: {
    group: "permission",
    yields: ["turn.started", "request.opened", "user-input.requested"],
    handle: mapPermissionRequest,
    note: "the driver's record of a canUseTool call (raw source claude.sdk.permission); AskUserQuestion adds user-input.requested",
  },
};

/** The `out` records: what the host sent. */
export const CLAUDE_OUT_KINDS: Record<string, KindRow> = {
  user: {
    group: "host",
    yields: ["turn.started", "item.started", "item.completed"],
    handle: mapHostPrompt,
    note: "the host's prompt: starts a turn when none is open; a user_message item",
  },
  [PERMISSION_DECISION]: {
    group: "host",
    yields: ["user-input.resolved", "request.resolved", "provider.event"],
    handle: mapPermissionDecision,
    note: "the PermissionResult returned to Claude; AskUserQuestion answers → user-input.resolved",
  },
  [INTERRUPT_REQUEST]: {
    group: "host",
    yields: ["provider.event"],
    handle: mapInterruptRequest,
    note: "the host interrupted: the turn's result then completes it as interrupted",
  },
};

/** `type` or `type:subtype` as in DESIGN §4 (system and result messages carry a subtype). */
export function kindOf(msg: Record<string, unknown>): string {
  const type = str(msg.type) ?? "";
  const subtype = str(msg.subtype);
  return (type === "system" || type === "result") && subtype !== undefined ? `${type}:${subtype}` : type;
}
