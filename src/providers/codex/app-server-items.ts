import type { CanonicalItemType, ItemStatus } from "../../contracts/enums.js";
import type { ItemLifecyclePayload } from "../../contracts/item-details.js";
import type { EventContext } from "../../kit/event-builder.js";
import { arr, isObject, type JsonObject, own, str } from "../../kit/guards.js";
import { itemPayload } from "../../kit/item-payload.js";
import { describeItem } from "./app-server-details.js";
import type { HandlerContext } from "./app-server-state.js";

/** Every v2 ThreadItem `type` of Codex 0.171.0 → its canonical item type. */
export const CODEX_ITEM_TYPES: Record<string, CanonicalItemType> = {
  userMessage: "user_message",
  /** A prompt a hook injected into the conversation: user-side input. */
  hookPrompt: "user_message",
  agentMessage: "assistant_message",
  /** The output of a function call the model made (a tool result item). */
  functionCallOutput: "dynamic_tool_call",
  plan: "plan",
  reasoning: "reasoning",
  commandExecution: "command_execution",
  fileChange: "file_change",
  mcpToolCall: "mcp_tool_call",
  dynamicToolCall: "dynamic_tool_call",
  collabAgentToolCall: "collab_agent_tool_call",
  /** What a spawned subagent did; linked to its collab call by `parentItemId`. */
  subAgentActivity: "collab_agent_tool_call",
  webSearch: "web_search",
  imageView: "image_view",
  /** The built-in `sleep` tool. */
  sleep: "dynamic_tool_call",
  /** A generated image: shown like a viewed one. */
  imageGeneration: "image_view",
  enteredReviewMode: "review_entered",
  exitedReviewMode: "review_exited",
  contextCompaction: "context_compaction",
};

export function canonicalItemType(nativeType: string | undefined): CanonicalItemType {
  return own(CODEX_ITEM_TYPES, nativeType) ?? "unknown";
}

const STATUS: Record<string, ItemStatus> = {
  inProgress: "inProgress",
  completed: "completed",
  failed: "failed",
  declined: "declined",
  interrupted: "failed",
  blocked: "declined",
};

/** The terminal status of a completed item: its native status when it has one, else completed. */
function completedStatus(item: JsonObject): ItemStatus {
  const native = str(item.status);
  const status = own(STATUS, native);
  if (status !== undefined && native !== "inProgress") return status;
  if (item.success === false) return "failed";
  return "completed";
}

/** The item's native fields without its native id and type: what the canonical payload carries as `data`. */
function dataOf(item: JsonObject): JsonObject {
  const { id: _id, type: _type, ...rest } = item;
  return rest;
}

function lifecycle(item: JsonObject, status: ItemStatus): ItemLifecyclePayload {
  return itemPayload(canonicalItemType(str(item.type)), {
    status,
    ...describeItem(item),
    data: dataOf(item),
  });
}

/**
 * Subagent links: a collab call names the threads it talks to (`receiverThreadIds`); the first call to name a
 * thread (its spawner) is the parent of that thread's events and of the parent thread's `subAgentActivity` items
 * about it. Later calls (wait, send input, close) talk to the same subagent and leave the link as it is.
 */
function linkSubagents(ctx: HandlerContext, item: JsonObject, ids: EventContext): void {
  const itemId = ids.itemId;
  if (itemId === undefined || str(item.type) !== "collabAgentToolCall") return;
  for (const receiver of arr(item.receiverThreadIds) ?? []) {
    const subagent = ctx.state.subagentThread(str(receiver));
    if (subagent === undefined || subagent.parentItemId !== undefined) continue;
    subagent.parentItemId = itemId;
    subagent.turnId = ids.turnId;
    subagent.description = str(item.prompt);
  }
}

function parentForItem(ctx: HandlerContext, item: JsonObject, threadKey: string | undefined) {
  if (str(item.type) === "subAgentActivity") {
    const parent = ctx.parentOf(str(item.agentThreadId));
    if (parent !== undefined) return parent;
  }
  return ctx.parentOf(threadKey);
}

/** `item/started`: opens the item (once) with its type and snapshot; a repeated start becomes an update. */
export function mapItemStarted(ctx: HandlerContext, params: JsonObject): void {
  const item = isObject(params.item) ? params.item : undefined;
  const nativeId = str(item?.id);
  const threadKey = str(params.threadId);
  if (item === undefined || nativeId === undefined) {
    ctx.warn("malformed item/started: no item id", { reason: "malformed-record" });
    return;
  }
  const payload = lifecycle(item, "inProgress");
  const opened = ctx.item(threadKey, str(params.turnId), nativeId, payload.itemType, {
    parentItemId: parentForItem(ctx, item, threadKey),
    payload,
  });
  if (opened === undefined) {
    ctx.warn("item/started for an item that already completed", { reason: "late-record" });
    return;
  }
  linkSubagents(ctx, item, opened.ids);
  if (payload.itemType === opened.state.itemType) opened.state.details = payload.details;
  if (!opened.isNew) ctx.emit("item.updated", payload, opened.ids);
}

/** `item/completed`: closes the item with its final snapshot and terminal status. */
export function mapItemCompleted(ctx: HandlerContext, params: JsonObject): void {
  const item = isObject(params.item) ? params.item : undefined;
  const nativeId = str(item?.id);
  const threadKey = str(params.threadId);
  if (item === undefined || nativeId === undefined) {
    ctx.warn("malformed item/completed: no item id", { reason: "malformed-record" });
    return;
  }
  const payload = lifecycle(item, completedStatus(item));
  const opened = ctx.item(threadKey, str(params.turnId), nativeId, payload.itemType, {
    parentItemId: parentForItem(ctx, item, threadKey),
    payload: { ...payload, status: "inProgress" },
  });
  if (opened === undefined) {
    ctx.warn("item/completed for an item that already completed", { reason: "late-record" });
    return;
  }
  linkSubagents(ctx, item, opened.ids);
  // Hosts read a command's output from command_output deltas, whatever the source: when Codex streamed none,
  // the aggregated output arrives as one delta before the completion.
  const output = str(item.aggregatedOutput);
  const streamed = opened.state.streamedOutput === true;
  if (payload.itemType === "command_execution" && output !== undefined && output.length > 0 && !streamed)
    ctx.emit("content.delta", { streamKind: "command_output", delta: output }, opened.ids);
  ctx.emit("item.completed", payload, opened.ids);
  ctx.endItem(threadKey, nativeId);
}
