/** One native answer option of a request, as a label to show beside the canonical buttons. */
export interface NativeOption {
  label: string;
  kind?: string;
}

const MAX_OPTIONS = 20;

/**
 * The options a provider offered: Codex lists decision names (`accept`, `acceptForSession`, …, or objects such
 * as `{acceptWithExecpolicyAmendment: …}`), ACP gives `{optionId, name, kind}`, Claude the canonical decision
 * with its PermissionResult behaviour (`{decision, behavior}`).
 */
export function nativeOptions(options: unknown): NativeOption[] {
  if (!Array.isArray(options)) return [];
  return options.slice(0, MAX_OPTIONS).flatMap((option): NativeOption[] => {
    if (typeof option === "string") return [{ label: option }];
    if (typeof option !== "object" || option === null) return [];
    const record = option as Record<string, unknown>;
    const name = record.name ?? record.label ?? record.decision ?? record.optionId;
    const kind = record.kind ?? record.behavior;
    if (typeof name === "string") {
      return [typeof kind === "string" ? { label: name, kind } : { label: name }];
    }
    const keys = Object.keys(record);
    return keys.length > 0 ? [{ label: keys.slice(0, 3).join(", ") }] : [];
  });
}

/** The canonical decisions a host can send, with the button text. */
export const DECISIONS = [
  { decision: "accept", label: "Accept" },
  { decision: "acceptForSession", label: "Accept for session" },
  { decision: "decline", label: "Decline" },
  { decision: "cancel", label: "Cancel" },
] as const;
export type Decision = (typeof DECISIONS)[number]["decision"];

const TITLES: Record<string, [question: string, noun: string]> = {
  command_execution_approval: ["Run this command?", "Command approval"],
  exec_command_approval: ["Run this command?", "Command approval"],
  file_change_approval: ["Apply this file change?", "File change approval"],
  apply_patch_approval: ["Apply this patch?", "Patch approval"],
  tool_user_input: ["The agent asks", "Question"],
  permissions_approval: ["Grant these permissions?", "Permissions"],
  mcp_elicitation: ["An MCP server asks", "MCP input"],
  dynamic_tool_call: ["Run this tool for the agent?", "Tool call"],
  client_capability: ["Allow this call on the client?", "Client call"],
  auth_tokens_refresh: ["Refresh the auth tokens?", "Auth tokens"],
};

/** The question an open request's card asks. */
export function requestTitle(type: string): string {
  return TITLES[type]?.[0] ?? "The agent asks";
}

/** What a resolved request was, for the line that records it. */
export function requestNoun(type: string): string {
  return TITLES[type]?.[1] ?? "Request";
}
