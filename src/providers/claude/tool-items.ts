/**
 * Tool calls as items: started by their `tool_use` block (streamed or snapshot), input completed at the block's
 * stop, and completed when the `user` message's `tool_result` arrives, with the output in `data.output`. Each
 * event carries the item's `details` as far as they are known then (tool-details.ts).
 */
import type { ItemStatus } from "../../contracts/enums.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { ItemDetails } from "../../contracts/item-details.js";
import { arr, asObject, idKey, isObject, type JsonObject, str } from "../../kit/guards.js";
import { itemPayload } from "../../kit/item-payload.js";
import { type ClaudeContext, emit, toolItemId } from "./context.js";
import { planUpdateFor } from "./plan.js";
import type { ToolState } from "./state.js";
import { detailsFromInput, detailsFromName, detailsFromResult, titleOf } from "./tool-details.js";
import { itemTypeOfTool } from "./tool-kinds.js";

const key = (toolUseId: string): string => `tool:${toolUseId}`;

export function startToolItem(
  ctx: ClaudeContext,
  toolUseId: string,
  toolName: string,
  blockType: string,
  input: Record<string, unknown> | undefined,
  parentItemId: string | undefined,
  serverName?: string,
): RuntimeEvent[] {
  const { state } = ctx;
  if (state.tools.isOpen(key(toolUseId)) || state.finishedTools.has(toolUseId)) return [];
  const tool: ToolState = {
    toolName,
    itemType: itemTypeOfTool(toolName, blockType),
    inputJson: "",
    input: input ?? {},
    inputFinal: input !== undefined,
    declined: false,
    ...(serverName === undefined ? {} : { serverName }),
    ...(parentItemId === undefined ? {} : { parentItemId }),
  };
  setDetails(tool, input === undefined ? detailsFromName(tool) : detailsFromInput(tool, input));
  const { entry } = state.tools.open(key(toolUseId), tool);
  return [emit(ctx, "item.started", toolPayload(tool, "inProgress"), toolIds(entry.id, toolUseId, tool))];
}

/** The tool's input is complete (block stop, or the snapshot): item.updated with it, once. */
export function finalizeToolInput(
  ctx: ClaudeContext,
  toolUseId: string,
  snapshotInput?: Record<string, unknown>,
): RuntimeEvent[] {
  const entry = ctx.state.tools.get(key(toolUseId));
  if (entry === undefined || entry.state.inputFinal) return [];
  const tool = entry.state;
  const parsed = snapshotInput === undefined ? parseInput(tool.inputJson) : undefined;
  tool.input = snapshotInput ?? (parsed === undefined ? { partialJson: tool.inputJson } : parsed.value);
  tool.inputFinal = true;
  // Input JSON that does not parse is kept in `data` as it came; the details then know only the tool's name.
  const known = snapshotInput !== undefined || parsed !== undefined;
  setDetails(tool, known ? detailsFromInput(tool, tool.input) : detailsFromName(tool));
  return [emit(ctx, "item.updated", toolPayload(tool, "inProgress"), toolIds(entry.id, toolUseId, tool))];
}

/** A `tool_result` block of a `user` message (or a server tool's result block): the tool item completes. */
export function completeToolFromResultBlock(
  ctx: ClaudeContext,
  block: JsonObject,
  toolUseResult?: unknown,
): RuntimeEvent[] {
  const toolUseId = idKey(block.tool_use_id);
  if (toolUseId === undefined)
    return [
      emit(ctx, "runtime.warning", {
        message: "tool result without a tool_use_id",
        detail: { reason: "malformed-record" },
      }),
    ];
  const events: RuntimeEvent[] = [];
  if (!ctx.state.tools.isOpen(key(toolUseId))) {
    if (ctx.state.finishedTools.has(toolUseId)) return [];
    // A result whose call we never saw (e.g. a subagent's internal tool): still an item, so the output is kept.
    // Its name and input are unknown: details name the tool "unknown" and give no arguments.
    events.push(...startToolItem(ctx, toolUseId, "unknown", "tool_use", undefined, undefined));
    const orphan = ctx.state.tools.get(key(toolUseId));
    if (orphan !== undefined) orphan.state.inputFinal = true;
  }
  const entry = ctx.state.tools.get(key(toolUseId));
  if (entry === undefined) return events;
  const tool = entry.state;
  if (!tool.inputFinal) events.push(...finalizeToolInput(ctx, toolUseId));
  const output = outputText(block.content);
  const isError = block.is_error === true;
  const ids = toolIds(entry.id, toolUseId, tool);
  if (tool.itemType === "command_execution" && !tool.declined && output.length > 0)
    events.push(emit(ctx, "content.delta", { streamKind: "command_output", delta: output }, ids));
  if (!isError) events.push(...planUpdateFor(ctx, tool, toolUseResult));
  const status = tool.declined ? "declined" : isError ? "failed" : "completed";
  const data: Record<string, unknown> = { toolName: tool.toolName, input: tool.input, output, isError };
  if (toolUseResult !== undefined) data.result = toolUseResult;
  setDetails(tool, detailsFromResult(tool, block, output, toolUseResult));
  events.push(emit(ctx, "item.completed", toolPayload(tool, status, data), ids));
  ctx.state.tools.close(key(toolUseId));
  ctx.state.finishedTools.set(toolUseId, true);
  return events;
}

/** Marks a tool whose permission was refused, so its item completes as `declined`. */
export function markToolDeclined(ctx: ClaudeContext, toolUseId: string | undefined): void {
  if (toolUseId === undefined) return;
  const entry = ctx.state.tools.get(key(toolUseId));
  if (entry !== undefined) entry.state.declined = true;
}

/** Tools still open when their turn ends (no result ever came): failed, with the reason. */
export function abandonOpenTools(ctx: ClaudeContext, reason: string): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  for (const entry of ctx.state.tools.openEntries()) {
    const tool = entry.state;
    const toolUseId = entry.nativeKey.slice("tool:".length);
    events.push(
      emit(
        ctx,
        "item.completed",
        { ...toolPayload(tool, tool.declined ? "declined" : "failed"), detail: reason },
        toolIds(entry.id, toolUseId, tool),
      ),
    );
    ctx.state.tools.close(entry.nativeKey);
    ctx.state.finishedTools.set(toolUseId, true);
  }
  return events;
}

export function toolIds(itemId: string, toolUseId: string, tool: ToolState) {
  return {
    itemId,
    ...(tool.parentItemId === undefined ? {} : { parentItemId: tool.parentItemId }),
    providerRefs: { providerItemId: toolUseId },
  };
}

/**
 * A `tool.progress` about the call `payload.toolUseId` (Claude's tool_progress, Claude Code's *_progress records):
 * the envelope carries the call's item ids where its item is open or known, else only the native id.
 */
export function toolProgress(
  ctx: ClaudeContext,
  payload: {
    toolUseId: string | undefined;
    toolName: string | undefined;
    elapsedSeconds: number | undefined;
  },
): RuntimeEvent {
  return emit(ctx, "tool.progress", payload, callIds(ctx, payload.toolUseId));
}

function callIds(ctx: ClaudeContext, toolUseId: string | undefined) {
  if (toolUseId === undefined) return {};
  const entry = ctx.state.tools.get(key(toolUseId));
  if (entry === undefined) return { providerRefs: { providerItemId: toolUseId } };
  return toolIds(entry.id, toolUseId, entry.state);
}

export function toolItemIdOf(ctx: ClaudeContext, toolUseId: string): string {
  return toolItemId(ctx.state, toolUseId);
}

/** The streamed input JSON, parsed; undefined when it does not parse (a cut stream). */
function parseInput(json: string): { value: unknown } | undefined {
  if (json.trim().length === 0) return { value: {} };
  try {
    return { value: JSON.parse(json) as unknown };
  } catch {
    return undefined;
  }
}

/** Tool result content (a string or content blocks) as text; non-text blocks are named, not dropped. */
export function outputText(content: unknown): string {
  if (typeof content === "string") return content;
  const blocks = arr(content);
  if (blocks === undefined) return content === undefined || content === null ? "" : JSON.stringify(content);
  return blocks
    .map((block) => {
      if (!isObject(block)) return "";
      if (block.type === "text") return str(block.text) ?? "";
      return `[${str(block.type) ?? "block"}]`;
    })
    .join("");
}

export function toolUseResultOf(msg: JsonObject): unknown {
  return asObject(msg)?.tool_use_result;
}

/** An item payload of the tool in its current state; `data` is the native call (and its result, at the end). */
function toolPayload(tool: ToolState, status: ItemStatus, data?: Record<string, unknown>) {
  return itemPayload(tool.itemType, {
    status,
    title: titleOf(tool),
    ...(tool.details === undefined ? {} : { details: tool.details }),
    data: data ?? { toolName: tool.toolName, input: tool.input },
  });
}

function setDetails(tool: ToolState, details: ItemDetails | undefined): void {
  if (details === undefined) delete tool.details;
  else tool.details = details;
}
