import type { ApprovalDecision } from "../../contracts/enums.js";
import { isObject, own, str } from "../../kit/guards.js";

/** ACP PermissionOptionKind ↔ canonical decision. Agents name their options freely; the kind is what counts. */
export const OPTION_KIND_DECISION: Record<string, ApprovalDecision> = {
  allow_once: "accept",
  allow_always: "acceptForSession",
  reject_once: "decline",
  reject_always: "decline",
};

/** Option ids seen without a kind (Cursor's, codex-acp's, claude-agent-acp's), as a last resort. */
const OPTION_ID_DECISION: Record<string, ApprovalDecision> = {
  "allow-once": "accept",
  "allow-always": "acceptForSession",
  "reject-once": "decline",
  allow: "accept",
  allow_always: "acceptForSession",
  reject: "decline",
  approved: "accept",
  "approved-for-session": "acceptForSession",
  abort: "decline",
  denied: "decline",
};

/** The option kinds to look for, best first, for a canonical decision (cancel has none: it is an outcome). */
const DECISION_KINDS: Record<Exclude<ApprovalDecision, "cancel">, string[]> = {
  accept: ["allow_once", "allow_always"],
  acceptForSession: ["allow_always", "allow_once"],
  decline: ["reject_once", "reject_always"],
};

/**
 * Option ids that are session modes: choosing one switches the agent's mode for the rest of the session
 * (claude-agent-acp's ExitPlanMode offers `bypassPermissions` and `acceptEdits` as `allow_always`), which is
 * more than a decision about one tool call. A canonical decision never picks one that widens permissions
 * (DESIGN.md §2); a host that wants it names it in `payload.optionId`.
 */
const WIDENING_MODE_OPTIONS = new Set(["bypassPermissions", "acceptEdits", "dontAsk", "auto", "full-access"]);

export interface PermissionOption {
  optionId: string;
  kind: string | undefined;
  name: string | undefined;
}

export function readOptions(options: unknown): PermissionOption[] {
  if (!Array.isArray(options)) return [];
  return options.filter(isObject).flatMap((option) => {
    const optionId = str(option.optionId);
    return optionId === undefined ? [] : [{ optionId, kind: str(option.kind), name: str(option.name) }];
  });
}

/** The canonical decision a chosen option stands for. */
export function decisionOfOption(options: unknown, optionId: string): ApprovalDecision | undefined {
  const option = readOptions(options).find((candidate) => candidate.optionId === optionId);
  const byKind = own(OPTION_KIND_DECISION, option?.kind);
  return byKind ?? own(OPTION_ID_DECISION, optionId);
}

/** The native outcome for a canonical decision: the option of the best matching kind, or `cancelled`. */
export function outcomeForDecision(
  options: unknown,
  decision: ApprovalDecision,
  preferredOptionId?: string,
): { outcome: "cancelled" } | { outcome: "selected"; optionId: string } {
  const offered = readOptions(options);
  if (preferredOptionId !== undefined && offered.some((option) => option.optionId === preferredOptionId)) {
    return { outcome: "selected", optionId: preferredOptionId };
  }
  if (decision === "cancel") return { outcome: "cancelled" };
  const choosable =
    decision === "decline"
      ? offered
      : offered.filter((option) => !WIDENING_MODE_OPTIONS.has(option.optionId));
  for (const kind of DECISION_KINDS[decision]) {
    const match = choosable.find((option) => option.kind === kind);
    if (match !== undefined) return { outcome: "selected", optionId: match.optionId };
  }
  const byId = choosable.find((option) => {
    const implied = own(OPTION_ID_DECISION, option.optionId);
    return implied === decision || (decision === "acceptForSession" && implied === "accept");
  });
  if (byId !== undefined) return { outcome: "selected", optionId: byId.optionId };
  // No option fits (e.g. decline offered no reject option): cancelling is the safe answer.
  return { outcome: "cancelled" };
}
