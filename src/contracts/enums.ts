import { z } from "zod";

export const ProviderKind = z.enum(["codex", "claude", "cursor", "acp"]);
export type ProviderKind = z.infer<typeof ProviderKind>;

export const CanonicalItemType = z.enum([
  "user_message",
  "assistant_message",
  "reasoning",
  "plan",
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "dynamic_tool_call",
  "collab_agent_tool_call",
  "web_search",
  "image_view",
  "review_entered",
  "review_exited",
  "context_compaction",
  "error",
  "unknown",
]);
export type CanonicalItemType = z.infer<typeof CanonicalItemType>;

/**
 * The spec's request types, plus the kinds today's providers ask for that it did not name
 * (`permissions_approval`, `mcp_elicitation`, `client_capability` for ACP fs/terminal calls).
 */
export const CanonicalRequestType = z.enum([
  "command_execution_approval",
  "file_change_approval",
  "apply_patch_approval",
  "exec_command_approval",
  "tool_user_input",
  "dynamic_tool_call",
  "auth_tokens_refresh",
  "permissions_approval",
  "mcp_elicitation",
  "client_capability",
  "unknown",
]);
export type CanonicalRequestType = z.infer<typeof CanonicalRequestType>;

export const ContentStreamKind = z.enum([
  "assistant_text",
  "reasoning_text",
  "reasoning_summary_text",
  "plan_text",
  "command_output",
  "file_change_output",
  "unknown",
]);
export type ContentStreamKind = z.infer<typeof ContentStreamKind>;

export const SessionState = z.enum(["starting", "ready", "running", "waiting", "stopped", "error"]);
export type SessionState = z.infer<typeof SessionState>;
export const ThreadState = z.enum(["active", "idle", "archived", "closed", "compacted", "error"]);
export type ThreadState = z.infer<typeof ThreadState>;
export const TurnState = z.enum(["completed", "failed", "interrupted", "cancelled"]);
export type TurnState = z.infer<typeof TurnState>;
export const ItemStatus = z.enum(["inProgress", "completed", "failed", "declined"]);
export type ItemStatus = z.infer<typeof ItemStatus>;
export const PlanStepStatus = z.enum(["pending", "inProgress", "completed"]);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

/** The canonical answer a host gives to any approval, whatever the provider. */
export const ApprovalDecision = z.enum(["accept", "acceptForSession", "decline", "cancel"]);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const RuntimeErrorClass = z.enum([
  "provider_error",
  "transport_error",
  "permission_error",
  "validation_error",
  "unknown",
]);
export type RuntimeErrorClass = z.infer<typeof RuntimeErrorClass>;

/**
 * Where a raw record came from. The spec's nine tags, plus responses and rollout lines it did not name,
 * the generic `acp.*` tags for ACP agents other than Cursor, and the runtime's own transcript/driver records.
 */
export const RawSource = z.enum([
  "codex.app-server.notification",
  "codex.app-server.request",
  "codex.app-server.response",
  "codex.eventmsg",
  "codex.rollout",
  "claude.sdk.message",
  "claude.sdk.permission",
  "codex.sdk.thread-event",
  "cursor.acp.notification",
  "cursor.acp.request",
  "cursor.acp.response",
  "acp.notification",
  "acp.request",
  "acp.response",
  "runtime.transcript",
  "runtime.driver",
]);
export type RawSource = z.infer<typeof RawSource>;
