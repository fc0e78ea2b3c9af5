import * as z from "zod";

export const ProviderKind = z
  .enum(["codex", "claude", "cursor", "acp"])
  .describe(
    "The agent family the session runs: `codex` (app server, `codex exec`/SDK, rollout files), `claude` (Claude Agent SDK, Claude Code session files), `cursor` (Cursor's ACP agent), `acp` (any other ACP agent).",
  );
export type ProviderKind = z.infer<typeof ProviderKind>;

export const CanonicalItemType = z
  .enum([
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
  ])
  .describe(
    "What an item of a turn is; it decides the shape of the item's `details`. `unknown` is a native item type with no canonical name.",
  );
export type CanonicalItemType = z.infer<typeof CanonicalItemType>;

/**
 * The spec's request types, plus the kinds today's providers ask for that it did not name
 * (`permissions_approval`, `mcp_elicitation`, `client_capability` for ACP fs/terminal calls).
 */
export const CanonicalRequestType = z
  .enum([
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
  ])
  .describe(
    "What the agent asks the host for: to approve a command (`command_execution_approval`; `exec_command_approval` is Codex's older form) or a file edit (`file_change_approval`; older form `apply_patch_approval`), answers to questions (`tool_user_input`), to run a tool the host provides (`dynamic_tool_call`), fresh auth tokens (`auth_tokens_refresh`), wider permissions (`permissions_approval`), input an MCP server asks for (`mcp_elicitation`), a call on a capability of the host itself such as ACP file access or a terminal (`client_capability`), or something else (`unknown`).",
  );
export type CanonicalRequestType = z.infer<typeof CanonicalRequestType>;

export const ContentStreamKind = z
  .enum([
    "assistant_text",
    "reasoning_text",
    "reasoning_summary_text",
    "plan_text",
    "command_output",
    "file_change_output",
    "unknown",
  ])
  .describe(
    "Which stream of its item a delta belongs to: the answer text, the raw reasoning, the reasoning summary, a plan's text, a command's output (stdout and stderr as the provider sends them), the output of applying a file change, or `unknown`.",
  );
export type ContentStreamKind = z.infer<typeof ContentStreamKind>;

export const SessionState = z
  .enum(["starting", "ready", "running", "waiting", "stopped", "error"])
  .describe(
    "The session's state: `starting` while the program starts, `ready` when it can take a turn (after the handshake and after every turn), `running` while a turn runs, `waiting` while a request awaits the host, `stopped` after a clean exit, `error` after a fatal failure.",
  );
export type SessionState = z.infer<typeof SessionState>;
export const ThreadState = z
  .enum(["active", "idle", "archived", "closed", "compacted", "error"])
  .describe(
    "The thread's state: `active` while one of its turns runs, `idle` when none does, `archived` or `closed` when the provider puts it away, `compacted` right after its context was summarized, `error` when the provider reports the thread failed.",
  );
export type ThreadState = z.infer<typeof ThreadState>;
export const TurnState = z
  .enum(["completed", "failed", "interrupted", "cancelled"])
  .describe(
    "How a turn ended: `completed` normally, `failed` on an error, `interrupted` by the host or a stop, `cancelled` when the provider dropped it (e.g. a newer prompt replaced it).",
  );
export type TurnState = z.infer<typeof TurnState>;
export const ItemStatus = z
  .enum(["inProgress", "completed", "failed", "declined"])
  .describe(
    "An item's status: `inProgress` while it runs; at the end `completed`, `failed`, or `declined` when the host refused its approval.",
  );
export type ItemStatus = z.infer<typeof ItemStatus>;
export const PlanStepStatus = z
  .enum(["pending", "inProgress", "completed"])
  .describe("A plan step's progress: `pending` (not begun), `inProgress`, `completed`.");
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

/** The canonical answer a host gives to any approval, whatever the provider. */
export const ApprovalDecision = z
  .enum(["accept", "acceptForSession", "decline", "cancel"])
  .describe(
    "The host's answer to a request, the same for every provider: `accept` this once, `acceptForSession` (also later requests of the same kind in this session), `decline` (the agent goes on without it), `cancel` (refuse and interrupt the turn where the provider can; what a stop or crash gives every open request).",
  );
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const RuntimeErrorClass = z
  .enum(["provider_error", "transport_error", "permission_error", "validation_error", "unknown"])
  .describe(
    "Whose fault an error is: the provider or its model (`provider_error`), the connection to the program, such as a crash or unreadable output (`transport_error`), a refused login or permission (`permission_error`), a request the program rejected as invalid (`validation_error`), or `unknown`.",
  );
export type RuntimeErrorClass = z.infer<typeof RuntimeErrorClass>;

/**
 * Where a raw record came from. The spec's nine tags, plus responses and rollout lines it did not name,
 * the generic `acp.*` tags for ACP agents other than Cursor, and the runtime's own transcript/driver records.
 */
export const RawSource = z
  .enum([
    "codex.app-server.notification",
    "codex.app-server.request",
    "codex.app-server.response",
    "codex.eventmsg",
    "codex.rollout",
    "claude.sdk.message",
    "claude.sdk.permission",
    "claude.session-file",
    "codex.sdk.thread-event",
    "cursor.acp.notification",
    "cursor.acp.request",
    "cursor.acp.response",
    "acp.notification",
    "acp.request",
    "acp.response",
    "runtime.transcript",
    "runtime.driver",
  ])
  .describe(
    "Which wire the native record came from: `<provider>.<surface>.<message kind>` for provider traffic (a Codex app-server notification, an ACP request, a Claude SDK message, …); `runtime.transcript` for a transcript line that was not a message (e.g. a malformed line), `runtime.driver` for a record the driver itself wrote into the transcript (e.g. the prompt it passed to `codex exec`).",
  );
export type RawSource = z.infer<typeof RawSource>;
