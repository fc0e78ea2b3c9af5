/**
 * Approvals as the session file tells them: a tool result's `permissionDecision` (2.1.x) says how the call was
 * allowed or refused. Where the user was asked (`source` `user_*`), the request is shown as one that opened
 * and resolved at the result, so a history shows the same approval a live session did; a refusal (`reject`)
 * completes the tool item as `declined`. An AskUserQuestion call also shows its questions and the answers its
 * result holds (`toolUseResult.answers`). Decisions by rule or mode (`config`, …) open no request.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { asObject, str } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import { emit } from "../claude/context.js";
import { detailOf, questionsOf } from "../claude/permissions.js";
import { markToolDeclined } from "../claude/tool-items.js";
import { QUESTION_TOOL, requestTypeOfTool } from "../claude/tool-kinds.js";
import type { SessionFileContext } from "./context.js";

export function approvalEvents(ctx: SessionFileContext, toolUseId: string): RuntimeEvent[] {
  const permission = asObject(ctx.record.permissionDecision);
  const verdict = str(permission?.decision);
  if (verdict === undefined) return [];
  if (verdict === "reject" || verdict === "deny") markToolDeclined(ctx, toolUseId);
  const source = str(permission?.source);
  const entry = ctx.state.tools.get(`tool:${toolUseId}`);
  if (source === undefined || !source.startsWith("user") || entry === undefined) return [];
  const tool = entry.state;
  const requestType = requestTypeOfTool(tool.toolName);
  const ids = {
    requestId: mintId(ctx.state.sessionId, "request", `permission:${toolUseId}`),
    itemId: entry.id,
    ...(tool.parentItemId === undefined ? {} : { parentItemId: tool.parentItemId }),
    providerRefs: { providerItemId: toolUseId },
  };
  const decision =
    verdict !== "accept" ? "decline" : permission?.grantScope === "session" ? "acceptForSession" : "accept";
  const input = asObject(tool.input) ?? {};
  const args = { toolName: tool.toolName, input: tool.input };
  const detail = detailOf({ input }, tool.toolName);
  const events: RuntimeEvent[] = [emit(ctx, "request.opened", { requestType, detail, args }, ids)];
  if (tool.toolName === QUESTION_TOOL) {
    const answers = asObject(asObject(ctx.record.toolUseResult)?.answers) ?? {};
    events.push(
      emit(ctx, "user-input.requested", { questions: questionsOf(input) }, ids),
      emit(ctx, "user-input.resolved", { answers }, ids),
    );
  }
  events.push(emit(ctx, "request.resolved", { requestType, decision, resolution: permission }, ids));
  return events;
}
