/**
 * A canonical answer (`RequestResponse`) → the PermissionResult `canUseTool` returns to Claude.
 * Pure; the driver records the result it returns in its `permission_decision` record.
 */
import type { RequestResponse } from "../../contracts/driver.js";
import { isObject } from "../../kit/guards.js";
import { questionsOf } from "./permissions.js";
import { QUESTION_TOOL } from "./tool-kinds.js";

export interface PendingPermission {
  toolName: string;
  input: Record<string, unknown>;
  suggestions: unknown[] | undefined;
}

export interface PermissionAnswer {
  result: Record<string, unknown>;
  /** AskUserQuestion answers as returned to Claude: question text → chosen label(s). */
  answers?: Record<string, string>;
}

export function permissionAnswer(pending: PendingPermission, response: RequestResponse): PermissionAnswer {
  if (
    isObject(response.payload) &&
    (response.payload.behavior === "allow" || response.payload.behavior === "deny")
  )
    return { result: response.payload };
  switch (response.decision) {
    case "accept":
    case "acceptForSession":
      if (pending.toolName === QUESTION_TOOL) return questionAnswer(pending, response);
      return {
        result: {
          behavior: "allow",
          updatedInput: pending.input,
          ...(response.decision === "acceptForSession"
            ? { updatedPermissions: sessionPermissions(pending) }
            : {}),
        },
      };
    case "decline":
      return {
        result: { behavior: "deny", message: response.message ?? "The user declined this tool call." },
      };
    default:
      return cancelAnswer(response.message ?? "The user cancelled this tool call.");
  }
}

export function cancelAnswer(message: string): PermissionAnswer {
  return { result: { behavior: "deny", message, interrupt: true } };
}

/**
 * "Always allow for this session": Claude's own suggestions when it gave some, else a session rule for the tool.
 */
function sessionPermissions(pending: PendingPermission): unknown[] {
  if (pending.suggestions !== undefined && pending.suggestions.length > 0) return pending.suggestions;
  return [
    { type: "addRules", rules: [{ toolName: pending.toolName }], behavior: "allow", destination: "session" },
  ];
}

/**
 * AskUserQuestion's documented contract: allow, with `updatedInput` = the tool input plus `answers`, a map from
 * each question's text to the chosen option label (several labels joined by ", " for multiSelect) or free text.
 */
function questionAnswer(pending: PendingPermission, response: RequestResponse): PermissionAnswer {
  const given = response.answers ?? {};
  const answers: Record<string, string> = {};
  for (const question of questionsOf(pending.input)) {
    const answer =
      given[question.id] ??
      given[question.question] ??
      (question.header === undefined ? undefined : given[question.header]);
    if (answer !== undefined) answers[question.id] = Array.isArray(answer) ? answer.join(", ") : answer;
  }
  return { result: { behavior: "allow", updatedInput: { ...pending.input, answers } }, answers };
}
