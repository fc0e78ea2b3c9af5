/**
 * The records of a Claude transcript that are not SDK messages (DESIGN.md §3).
 *
 * `in`  — every SDKMessage that `query()` yields, as is; plus a `permission_request` per `canUseTool` call
 *         (the callback is not an SDK message, so the driver writes its arguments down in this envelope).
 * `out` — every user message the host pushed into the streaming prompt (an SDKUserMessage), and a
 *         `permission_decision` per answered `permission_request`, carrying the PermissionResult returned to Claude.
 */
import type { ApprovalDecision } from "../../contracts/enums.js";

export const CLAUDE_SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";
export const CLAUDE_SDK_VERSION = "0.3.332";

export const PERMISSION_REQUEST = "permission_request";
export const PERMISSION_DECISION = "permission_decision";
export const INTERRUPT_REQUEST = "interrupt_request";

/** `in`: one `canUseTool(toolName, input, options)` call, `options` without its AbortSignal. */
export interface PermissionRequestRecord {
  type: typeof PERMISSION_REQUEST;
  /** The native correlation key: `options.requestId`, else `options.toolUseID`. */
  requestKey: string;
  toolName: string;
  input: Record<string, unknown>;
  toolUseID?: string;
  suggestions?: unknown[];
  blockedPath?: string;
  decisionReason?: string;
  title?: string;
  displayName?: string;
  description?: string;
  agentID?: string;
  /** Any other option fields the SDK passed, kept whole. */
  [extra: string]: unknown;
}

/** `out`: the host's answer to a `permission_request` (or the driver's `cancel` on abort/stop). */
export interface PermissionDecisionRecord {
  type: typeof PERMISSION_DECISION;
  requestKey: string;
  decision: ApprovalDecision;
  /** The PermissionResult returned to Claude (`{behavior: "allow" | "deny", ...}`). */
  result: Record<string, unknown>;
  /** AskUserQuestion: the answers returned to Claude, keyed by question text. */
  answers?: Record<string, string>;
  /** Why the driver decided on its own (abort signal, stop, process exit). */
  reason?: string;
}

/** `out`: the host asked Claude to interrupt the running turn. */
export interface InterruptRequestRecord {
  type: typeof INTERRUPT_REQUEST;
  reason: string;
}
