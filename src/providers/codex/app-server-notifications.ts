import type { ContentStreamKind, ThreadState, TurnState } from "../../contracts/enums.js";
import type { ItemDetails } from "../../contracts/item-details.js";
import type { PlanStep, RuntimeEventPayloadByType, TokenUsage } from "../../contracts/payloads.js";
import { arr, isObject, type JsonObject, num, own, str } from "../../kit/guards.js";
import { itemPayload } from "../../kit/item-payload.js";
import { fileChanges } from "./app-server-details.js";
import type { CodexHandler, CodexHandlerTable } from "./app-server-handler.js";
import { mapItemCompleted, mapItemStarted } from "./app-server-items.js";
import { MISC_NOTIFICATIONS } from "./app-server-notifications-misc.js";
import { mapServerRequestResolved } from "./app-server-requests.js";
import type { HandlerContext } from "./app-server-state.js";
import {
  mapSubagentStatus,
  mapSubagentTurnCompleted,
  mapSubagentTurnStarted,
} from "./app-server-subagents.js";

type ContentDeltaPayload = RuntimeEventPayloadByType["content.delta"];

/** A delta of an item's content stream; opens the item on first sight, never after it completed. */
function contentDelta(
  streamKind: ContentStreamKind,
  itemType: Parameters<HandlerContext["item"]>[3],
): CodexHandler {
  return {
    yields: ["content.delta"],
    handle(ctx, params) {
      const nativeId = str(params.itemId);
      const delta = str(params.delta);
      if (nativeId === undefined || delta === undefined) {
        ctx.warn(`malformed ${streamKind} delta: no item id or delta`, { reason: "malformed-record" });
        return;
      }
      const opened = ctx.item(str(params.threadId), str(params.turnId), nativeId, itemType);
      if (opened === undefined) {
        ctx.warn("delta for an item that already completed", { reason: "late-record" });
        return;
      }
      opened.state.streamedOutput = true;
      ctx.emit("content.delta", deltaPayload(streamKind, delta, params), opened.ids);
    },
  };
}

/**
 * A delta's payload with only the indexes the record has. Most deltas have none: written as `undefined`, the
 * builder would copy every payload to drop them.
 */
function deltaPayload(streamKind: ContentStreamKind, delta: string, params: JsonObject): ContentDeltaPayload {
  const payload: ContentDeltaPayload = { streamKind, delta };
  const contentIndex = num(params.contentIndex);
  if (contentIndex !== undefined) payload.contentIndex = contentIndex;
  const summaryIndex = num(params.summaryIndex);
  if (summaryIndex !== undefined) payload.summaryIndex = summaryIndex;
  return payload;
}

/**
 * An update of an open item that is not a content delta (segment boundaries, patch previews, stdin). It carries
 * the details `preview` reads off the record, else those of the item's last snapshot.
 */
function itemUpdate(
  itemType: Parameters<HandlerContext["item"]>[3],
  dataKeys: string[],
  preview?: (params: JsonObject) => ItemDetails,
): CodexHandler {
  return {
    yields: ["item.updated"],
    handle(ctx, params) {
      const nativeId = str(params.itemId);
      const opened =
        nativeId === undefined
          ? undefined
          : ctx.item(str(params.threadId), str(params.turnId), nativeId, itemType);
      if (opened === undefined) {
        ctx.warn("update for an unknown or completed item", { reason: "late-record" });
        return;
      }
      const data: JsonObject = {};
      for (const key of dataKeys) if (params[key] !== undefined) data[key] = params[key];
      const sameType = opened.state.itemType === itemType;
      if (preview !== undefined && sameType) opened.state.details = preview(params);
      const details = sameType ? opened.state.details : undefined;
      ctx.emit("item.updated", itemPayload(itemType, { status: "inProgress", details, data }), opened.ids);
    },
  };
}

function threadState(state: ThreadState, detail?: (params: JsonObject) => unknown): CodexHandler {
  return {
    yields: ["thread.state.changed"],
    handle(ctx, params) {
      ctx.emit("thread.state.changed", { state, detail: detail?.(params) }, ctx.thread(str(params.threadId)));
    },
  };
}

/** Thread facts with no lifecycle meaning (goal, settings, section, ...) as `thread.metadata.updated`. */
function threadMetadata(key: string, value: (params: JsonObject) => unknown): CodexHandler {
  return {
    yields: ["thread.metadata.updated"],
    handle(ctx, params) {
      ctx.emit(
        "thread.metadata.updated",
        { metadata: { [key]: value(params) ?? null } },
        ctx.thread(str(params.threadId)),
      );
    },
  };
}

const NATIVE_THREAD_STATUS: Record<string, ThreadState> = {
  idle: "idle",
  active: "active",
  systemError: "error",
  notLoaded: "closed",
};

const TURN_STATUS: Record<string, TurnState> = {
  completed: "completed",
  interrupted: "interrupted",
  failed: "failed",
};

/** Codex's TokenUsageBreakdown in the canonical TokenUsage vocabulary. */
export function tokenUsageOf(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const usage: TokenUsage = {};
  const set = (key: keyof TokenUsage, native: string) => {
    const n = num(value[native]);
    if (n !== undefined) usage[key] = n;
  };
  set("inputTokens", "inputTokens");
  set("cachedInputTokens", "cachedInputTokens");
  set("cacheWriteTokens", "cacheWriteInputTokens");
  set("outputTokens", "outputTokens");
  set("reasoningOutputTokens", "reasoningOutputTokens");
  set("totalTokens", "totalTokens");
  return usage;
}

function addUsage(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  if (a === undefined) return { ...b };
  const sum: TokenUsage = { ...a };
  for (const key of Object.keys(b) as (keyof TokenUsage)[]) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  return sum;
}

const PLAN_STATUS = new Set(["pending", "inProgress", "completed"]);

function planSteps(value: unknown): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const entry of arr(value) ?? []) {
    if (!isObject(entry)) continue;
    const status = str(entry.status);
    steps.push({
      step: str(entry.step) ?? "",
      status: status !== undefined && PLAN_STATUS.has(status) ? (status as PlanStep["status"]) : "pending",
    });
  }
  return steps;
}

const TURN_AND_ITEM_NOTIFICATIONS: CodexHandlerTable = {
  error: {
    yields: ["runtime.error"],
    note: "willRetry and codexErrorInfo kept in detail",
    handle(ctx, params) {
      const error = isObject(params.error) ? params.error : {};
      ctx.emit(
        "runtime.error",
        {
          message: str(error.message) ?? "codex error",
          class: "provider_error",
          detail: {
            willRetry: params.willRetry,
            codexErrorInfo: error.codexErrorInfo,
            additionalDetails: error.additionalDetails,
          },
        },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "turn/started": {
    yields: ["turn.started", "task.started", "task.progress", "runtime.warning"],
    note: "runtime.warning when the turn has no id; a subagent thread's turn is no turn of the session: its subagent task starts (task.progress when its status started it), a warning when no collab call named the thread yet",
    handle(ctx, params) {
      const turn = isObject(params.turn) ? params.turn : {};
      const turnKey = str(turn.id);
      if (turnKey === undefined || turnKey.length === 0) {
        ctx.warn("malformed turn/started: no turn id", { reason: "malformed-record" });
        return;
      }
      const threadKey = str(params.threadId);
      const subagent = ctx.state.subagentThread(threadKey);
      if (subagent !== undefined && threadKey !== undefined) {
        mapSubagentTurnStarted(ctx, threadKey, turnKey, subagent);
        return;
      }
      // A turn that really starts is live, even one a resume listed as history.
      ctx.state.historyTurns.release(turnKey);
      ctx.turn(threadKey, turnKey);
    },
  },
  "turn/completed": {
    yields: ["turn.completed", "item.completed", "task.completed", "provider.event", "runtime.warning"],
    note: "items the turn left open (retried model calls) complete as failed first; no turn id: a warning; a subagent thread's turn ends its subagent task (task.completed), provider.event when none is open",
    handle(ctx, params) {
      const turn = isObject(params.turn) ? params.turn : {};
      const turnKey = str(turn.id);
      const threadKey = str(params.threadId);
      if (turnKey === undefined || turnKey.length === 0) {
        ctx.warn("malformed turn/completed: no turn id", { reason: "malformed-record" });
        return;
      }
      const subagent = ctx.state.subagentThread(threadKey);
      if (subagent !== undefined && threadKey !== undefined) {
        mapSubagentTurnCompleted(ctx, threadKey, turn, subagent);
        return;
      }
      if (ctx.state.endedTurns.has(turnKey)) {
        ctx.warn("turn/completed for a turn that already completed", { reason: "late-record" });
        return;
      }
      const ids = ctx.turn(threadKey, turnKey);
      const error = isObject(turn.error) ? turn.error : undefined;
      const state = own(TURN_STATUS, str(turn.status)) ?? (error !== undefined ? "failed" : "completed");
      ctx.endItemsOfTurn(turnKey, `turn ${state}`);
      const usage = ctx.state.turns.get(turnKey)?.state.usage;
      ctx.emit(
        "turn.completed",
        { state, usage, errorMessage: str(error?.message), stopReason: state === "completed" ? null : state },
        ids,
      );
      ctx.state.turns.close(turnKey);
      ctx.state.endedTurns.set(turnKey, true);
      const thread = threadKey === undefined ? undefined : ctx.state.threads.get(threadKey)?.state;
      if (thread?.activeTurnKey === turnKey) thread.activeTurnKey = undefined;
    },
  },
  "turn/diff/updated": {
    yields: ["turn.diff.updated"],
    handle(ctx, params) {
      ctx.emit(
        "turn.diff.updated",
        { unifiedDiff: str(params.diff) ?? "" },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "turn/plan/updated": {
    yields: ["turn.plan.updated"],
    handle(ctx, params) {
      ctx.emit(
        "turn.plan.updated",
        { explanation: str(params.explanation) ?? null, plan: planSteps(params.plan) },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "item/started": { yields: ["item.started", "item.updated"], handle: mapItemStarted },
  "item/completed": { yields: ["item.completed"], handle: mapItemCompleted },
  "item/agentMessage/delta": contentDelta("assistant_text", "assistant_message"),
  "item/plan/delta": contentDelta("plan_text", "plan"),
  "item/commandExecution/outputDelta": contentDelta("command_output", "command_execution"),
  "item/fileChange/outputDelta": contentDelta("file_change_output", "file_change"),
  "item/reasoning/summaryTextDelta": contentDelta("reasoning_summary_text", "reasoning"),
  "item/reasoning/textDelta": contentDelta("reasoning_text", "reasoning"),
  "item/reasoning/summaryPartAdded": itemUpdate("reasoning", ["summaryIndex"]),
  "item/commandExecution/terminalInteraction": itemUpdate("command_execution", ["processId", "stdin"]),
  "item/fileChange/patchUpdated": itemUpdate("file_change", ["changes"], (p) => ({
    changes: fileChanges(p.changes, false),
  })),
  "item/mcpToolCall/progress": {
    yields: ["tool.progress"],
    handle(ctx, params) {
      const nativeId = str(params.itemId);
      const opened =
        nativeId === undefined
          ? undefined
          : ctx.item(str(params.threadId), str(params.turnId), nativeId, "mcp_tool_call");
      ctx.emit(
        "tool.progress",
        { toolUseId: nativeId, summary: str(params.message) },
        opened?.ids ?? ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "serverRequest/resolved": {
    yields: ["request.resolved", "user-input.resolved", "provider.event"],
    note: "provider.event when our reply already resolved the request",
    handle: mapServerRequestResolved,
  },
};

const THREAD_NOTIFICATIONS: CodexHandlerTable = {
  "thread/started": {
    yields: ["thread.started", "thread.metadata.updated", "runtime.warning"],
    note: "thread.metadata.updated when the thread/start response already started it; no thread id: a warning",
    handle(ctx, params) {
      const thread = isObject(params.thread) ? params.thread : {};
      const key = str(thread.id);
      if (key === undefined || key.length === 0) {
        ctx.warn("malformed thread/started: no thread id", { reason: "malformed-record" });
        return;
      }
      const known = ctx.state.threads.isOpen(key);
      const parent = str(thread.parentThreadId);
      // A subagent's thread names its parent: it is not one of the session's own, even before we know those.
      if (parent !== undefined && ctx.state.ownThreads.size === 0) ctx.state.ownThreads.set(parent, true);
      ctx.state.subagentThread(key);
      const ids = ctx.thread(key);
      const state = ctx.state.threads.get(key)?.state;
      if (state !== undefined) state.model ??= str(thread.model);
      if (known)
        ctx.emit(
          "thread.metadata.updated",
          {
            name: str(thread.name),
            metadata: { preview: thread.preview, model: thread.model, parentThreadId: parent },
          },
          ids,
        );
    },
  },
  "thread/status/changed": {
    yields: ["thread.state.changed", "task.started", "task.progress", "provider.event"],
    note: "a subagent thread's status is its subagent task's (active starts it, others are progress); provider.event when no task is open or no collab call named the thread yet",
    handle(ctx, params) {
      const status = isObject(params.status) ? params.status : {};
      const threadKey = str(params.threadId);
      const subagent = ctx.state.subagentThread(threadKey);
      if (subagent !== undefined && threadKey !== undefined) {
        mapSubagentStatus(ctx, threadKey, status, subagent);
        return;
      }
      const state = own(NATIVE_THREAD_STATUS, str(status.type)) ?? "error";
      ctx.emit("thread.state.changed", { state, detail: status }, ctx.thread(threadKey));
    },
  },
  "thread/archived": threadState("archived"),
  "thread/unarchived": threadState("idle", () => ({ unarchived: true })),
  "thread/closed": threadState("closed"),
  "thread/deleted": threadState("closed", () => ({ deleted: true })),
  "thread/compacted": {
    yields: ["thread.state.changed"],
    handle(ctx, params) {
      ctx.emit(
        "thread.state.changed",
        { state: "compacted" },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "thread/reverted": threadMetadata("reverted", () => true),
  "thread/readState/changed": threadMetadata("readState", (p) => p.readState),
  "thread/section/changed": threadMetadata("sectionId", (p) => p.sectionId),
  "thread/attachment/updated": threadMetadata("attachment", (p) => ({
    attachmentType: p.attachmentType,
    identityKey: p.identityKey,
    operation: p.operation,
  })),
  "thread/goal/updated": threadMetadata("goal", (p) => p.goal),
  "thread/goal/cleared": threadMetadata("goal", () => null),
  "thread/prediction/updated": threadMetadata("prediction", (p) => p.result),
  "thread/queue/changed": threadMetadata("queueChanged", () => true),
  "thread/project/updated": threadMetadata("projectId", (p) => p.projectId),
  "thread/environment/connected": threadMetadata("environment", (p) => ({
    environmentId: p.environmentId,
    connected: true,
  })),
  "thread/environment/disconnected": threadMetadata("environment", (p) => ({
    environmentId: p.environmentId,
    connected: false,
  })),
  "thread/settings/updated": threadMetadata("settings", (p) => p.threadSettings),
  "thread/name/updated": {
    yields: ["thread.metadata.updated"],
    handle(ctx, params) {
      ctx.emit(
        "thread.metadata.updated",
        { name: str(params.threadName) ?? "" },
        ctx.thread(str(params.threadId)),
      );
    },
  },
  "thread/tokenUsage/updated": {
    yields: ["thread.token-usage.updated"],
    handle(ctx, params) {
      const native = isObject(params.tokenUsage) ? params.tokenUsage : {};
      const total = tokenUsageOf(native.total) ?? {};
      const last = tokenUsageOf(native.last);
      const turnKey = str(params.turnId);
      const ids = ctx.turn(str(params.threadId), turnKey);
      const turn = turnKey === undefined ? undefined : ctx.state.turns.get(turnKey);
      if (turn !== undefined && last !== undefined) turn.state.usage = addUsage(turn.state.usage, last);
      const window = num(native.modelContextWindow);
      ctx.emit(
        "thread.token-usage.updated",
        { usage: { total, last, modelContextWindow: window ?? null } },
        ids,
      );
    },
  },
};

/** Every ServerNotification method of Codex 0.171.0 → its handler. */
export const CODEX_NOTIFICATIONS: CodexHandlerTable = {
  ...TURN_AND_ITEM_NOTIFICATIONS,
  ...THREAD_NOTIFICATIONS,
  ...MISC_NOTIFICATIONS,
};
