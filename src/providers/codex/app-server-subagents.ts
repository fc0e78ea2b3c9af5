import { isObject, type JsonObject, str } from "../../kit/guards.js";
import type { HandlerContext, SubagentThread } from "./app-server-state.js";

/**
 * The records of a subagent's thread that would otherwise change the session's own lifecycle: its turn start and
 * end and its status. A subagent's turns are not the session's turns (DESIGN.md §2: the session is `running` while
 * one of ITS turns runs), so each busy spell of the child is one `subagent` task linked by `parentItemId` to the
 * collab call that spawned it: started when the child becomes active or starts a turn, progress on its status,
 * completed with its turn. Records of a child no collab call has named yet are `provider.event`s.
 */

const TURN_TASK_STATUS: Record<string, "completed" | "failed" | "stopped"> = {
  completed: "completed",
  failed: "failed",
  interrupted: "stopped",
};

function describe(subagent: SubagentThread): string {
  return subagent.description ?? "subagent";
}

/** The thread's open task, started now if it has none. */
function openTask(
  ctx: HandlerContext,
  threadKey: string,
  subagent: SubagentThread,
  turnKey?: string,
): string {
  if (subagent.openTaskId !== undefined) return subagent.openTaskId;
  subagent.taskCount++;
  const taskId = ctx.state.taskId("subagent", `${threadKey}\u0000${subagent.taskCount}`);
  subagent.openTaskId = taskId;
  ctx.emit(
    "task.started",
    { taskId, description: describe(subagent), taskType: "subagent" },
    ctx.subagentContext(threadKey, turnKey, subagent),
  );
  return taskId;
}

function unlinked(
  ctx: HandlerContext,
  name: string,
  threadKey: string,
  subagent: SubagentThread,
  what: string,
  turnKey?: string,
): void {
  ctx.emit(
    "provider.event",
    { name, summary: `subagent thread ${what} before a collab call named it` },
    ctx.subagentContext(threadKey, turnKey, subagent),
  );
}

/** `turn/started` of a subagent's thread: its task starts (or goes on, when its `active` status came first). */
export function mapSubagentTurnStarted(
  ctx: HandlerContext,
  threadKey: string,
  turnKey: string,
  subagent: SubagentThread,
): void {
  if (subagent.parentItemId === undefined) {
    ctx.warn(
      "a subagent thread started a turn before any collab call named it",
      { reason: "unlinked-subagent", providerThreadId: threadKey, providerTurnId: turnKey },
      ctx.subagentContext(threadKey, turnKey, subagent),
    );
    return;
  }
  const known = subagent.openTaskId;
  const taskId = openTask(ctx, threadKey, subagent, turnKey);
  if (known !== undefined)
    ctx.emit(
      "task.progress",
      { taskId, description: `${describe(subagent)}: turn started` },
      ctx.subagentContext(threadKey, turnKey, subagent),
    );
}

/** `turn/completed` of a subagent's thread: items it left open fail, and its task ends as the turn did. */
export function mapSubagentTurnCompleted(
  ctx: HandlerContext,
  threadKey: string,
  turn: JsonObject,
  subagent: SubagentThread,
): void {
  const turnKey = str(turn.id) ?? "";
  const error = isObject(turn.error) ? turn.error : undefined;
  const status = TURN_TASK_STATUS[str(turn.status) ?? ""] ?? (error !== undefined ? "failed" : "completed");
  ctx.endItemsOfTurn(turnKey, `subagent turn ${status}`);
  const taskId = subagent.openTaskId;
  if (taskId === undefined) {
    if (subagent.parentItemId === undefined)
      unlinked(ctx, "turn/completed", threadKey, subagent, "ended a turn", turnKey);
    else
      ctx.emit(
        "provider.event",
        { name: "turn/completed", summary: "a subagent turn ended with no task open" },
        ctx.subagentContext(threadKey, turnKey, subagent),
      );
    return;
  }
  subagent.openTaskId = undefined;
  const summary = str(error?.message);
  ctx.emit(
    "task.completed",
    { taskId, status, ...(summary === undefined ? {} : { summary }) },
    ctx.subagentContext(threadKey, turnKey, subagent),
  );
}

/** `thread/status/changed` of a subagent's thread: `active` starts its task; any status is the task's progress. */
export function mapSubagentStatus(
  ctx: HandlerContext,
  threadKey: string,
  status: JsonObject,
  subagent: SubagentThread,
): void {
  const type = str(status.type) ?? "unknown";
  if (subagent.parentItemId === undefined) {
    unlinked(ctx, "thread/status/changed", threadKey, subagent, type);
    return;
  }
  const context = ctx.subagentContext(threadKey, undefined, subagent);
  if (type === "active" && subagent.openTaskId === undefined) {
    openTask(ctx, threadKey, subagent);
    return;
  }
  if (subagent.openTaskId === undefined) {
    ctx.emit(
      "provider.event",
      { name: "thread/status/changed", summary: `subagent thread ${type}` },
      context,
    );
    return;
  }
  ctx.emit(
    "task.progress",
    { taskId: subagent.openTaskId, description: `${describe(subagent)}: ${type}` },
    context,
  );
}
