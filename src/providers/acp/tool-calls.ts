import type { CanonicalItemType, CanonicalRequestType, ItemStatus } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { EventBuilder } from "../../kit/event-builder.js";
import { arr, isObject, type JsonObject, own, str } from "../../kit/guards.js";
import { itemPayload } from "../../kit/item-payload.js";
import { splitMcpToolName } from "../../kit/mcp-tool-name.js";
import { providerEvent } from "../../kit/warnings.js";
import { type McpToolName, mcpToolOfTitle } from "./mcp-tool-titles.js";
import type { AcpSessionState, ToolState } from "./session-state.js";
import { mcpInvocation, toolView } from "./tool-details.js";
import { emptyFacts, mergeFacts, terminalOutputDelta } from "./tool-facts.js";

/** ACP ToolKind → canonical item type. `fetch` retrieves external data (web); `search` greps the workspace. */
export const TOOL_KIND_ITEM_TYPE: Record<string, CanonicalItemType> = {
  execute: "command_execution",
  edit: "file_change",
  delete: "file_change",
  move: "file_change",
  fetch: "web_search",
  read: "dynamic_tool_call",
  search: "dynamic_tool_call",
  think: "dynamic_tool_call",
  switch_mode: "dynamic_tool_call",
  other: "dynamic_tool_call",
};

export function itemTypeOfToolKind(kind: unknown): CanonicalItemType {
  const name = str(kind);
  return own(TOOL_KIND_ITEM_TYPE, name) ?? "dynamic_tool_call";
}

/**
 * The item type of a tool call's first record: by ToolKind; a call whose input is an MCP invocation
 * (`{server, tool, arguments}`, as codex-acp forwards Codex's, of kind `other` or, from codex-acp 2.6, `execute`)
 * or whose Claude tool name is `mcp__<server>__<tool>` (claude-agent-acp's `_meta.claudeCode.toolName`) is an MCP
 * call; so is one of kind `other` whose title is `<server>_<tool>` or `<server>-<tool>` for a server the session
 * was given (OpenCode, Copilot: `mcp-tool-titles.ts`). Other titles are not parsed.
 */
function itemTypeOfToolCall(update: JsonObject, mcpTitled: McpToolName | undefined): CanonicalItemType {
  const itemType = itemTypeOfToolKind(update.kind);
  const kind = str(update.kind);
  const mcpKind = kind === undefined || kind === "other" || kind === "execute";
  if (mcpKind && mcpInvocation(update.rawInput) !== undefined) return "mcp_tool_call";
  if ((kind === undefined || kind === "other") && mcpTitled !== undefined) return "mcp_tool_call";
  const meta =
    isObject(update._meta) && isObject(update._meta.claudeCode) ? update._meta.claudeCode : undefined;
  const toolName = str(meta?.toolName);
  if (toolName !== undefined && splitMcpToolName(toolName) !== undefined) return "mcp_tool_call";
  return itemType;
}

function openTool(state: AcpSessionState, key: string, toolCallId: string, update: JsonObject) {
  const mcpTitled = mcpToolOfTitle(str(update.title), state.mcpServerNames);
  const itemType = itemTypeOfToolCall(update, mcpTitled);
  const facts = emptyFacts();
  if (itemType === "mcp_tool_call") facts.mcpTitled = mcpTitled;
  return state.tools.open(key, {
    itemType,
    turnId: state.currentTurnId,
    toolCallId,
    facts,
    parentItemId: state.parentItemId,
  });
}

/** The approval a permission request for a tool of this kind stands for. */
export function requestTypeOfToolKind(kind: unknown): CanonicalRequestType {
  const itemType = itemTypeOfToolKind(kind);
  if (itemType === "command_execution") return "command_execution_approval";
  if (itemType === "file_change") return "file_change_approval";
  return "permissions_approval";
}

const ITEM_STATUS: Record<string, ItemStatus> = {
  pending: "inProgress",
  in_progress: "inProgress",
  completed: "completed",
  failed: "failed",
};

function isTerminal(status: unknown): boolean {
  return status === "completed" || status === "failed";
}

/** The fields of a tool call worth showing, without the ACP envelope. */
function toolData(update: JsonObject): JsonObject {
  const data: JsonObject = {};
  for (const key of ["kind", "name", "rawInput", "rawOutput", "content", "locations"]) {
    if (update[key] !== undefined && update[key] !== null) data[key] = update[key];
  }
  const output = toolOutputText(update);
  if (output !== undefined) data.output = output;
  return data;
}

/** A tool's output as text: rawOutput (string or stdout/stderr/output fields), else its text content. */
export function toolOutputText(update: JsonObject): string | undefined {
  const rawOutput = update.rawOutput;
  if (typeof rawOutput === "string" && rawOutput.length > 0) return rawOutput;
  if (isObject(rawOutput)) {
    const parts = ["formatted_output", "aggregated_output", "output", "stdout", "stderr"]
      .map((key) => str(rawOutput[key]))
      .filter((text): text is string => text !== undefined && text.length > 0);
    if (parts.length > 0) return [...new Set(parts)].join("\n");
  }
  const texts: string[] = [];
  for (const block of arr(update.content) ?? []) {
    if (!isObject(block)) continue;
    const inner = isObject(block.content) ? block.content : undefined;
    const text = str(inner?.text);
    if (text !== undefined && text.length > 0) texts.push(text);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/** An item event's payload: this record's native fields as data, title and details from all records so far. */
function payloadOf(
  state: AcpSessionState,
  tool: ToolState,
  update: JsonObject,
  status: ItemStatus | undefined,
) {
  const { title, details } = toolView(tool.itemType, tool.facts, state.terminals);
  const data = toolData(update);
  return itemPayload(tool.itemType, {
    ...(status === undefined ? {} : { status }),
    ...(title === undefined ? {} : { title }),
    ...(details === undefined ? {} : { details }),
    ...(Object.keys(data).length === 0 ? {} : { data }),
  });
}

/**
 * `tool_call`: the start of a tool item. Cursor announces each toolCallId twice (once bare, once with its input):
 * the second becomes an `item.updated` of the same item, never a second start.
 */
export function mapToolCall(
  state: AcpSessionState,
  b: EventBuilder,
  update: JsonObject,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const toolCallId = str(update.toolCallId);
  if (toolCallId === undefined)
    return [providerEvent(b, "tool_call", raw, "tool_call without toolCallId", state.context(raw))];
  const key = `tool:${toolCallId}`;
  if (state.closedTools.has(key)) {
    return [
      providerEvent(b, "tool_call", raw, "tool call announced again after it ended", state.context(raw)),
    ];
  }
  const events = state.closeText(b, raw);
  const { entry, isNew } = openTool(state, key, toolCallId, update);
  mergeFacts(entry.state.facts, update);
  const ids = toolContext(state, raw, entry.id, entry.state);
  const status = own(ITEM_STATUS, str(update.status)) ?? "inProgress";
  if (isNew) events.push(b.emit("item.started", payloadOf(state, entry.state, update, "inProgress"), ids));
  events.push(...streamedOutput(b, entry.state, update, ids));
  if (isTerminal(update.status)) {
    events.push(...completeTool(state, b, key, update, raw));
  } else if (!isNew) {
    events.push(b.emit("item.updated", payloadOf(state, entry.state, update, status), ids));
  }
  return events;
}

/** `tool_call_update`: progress of a started tool, or its end (completed / failed) with the output visible. */
export function mapToolCallUpdate(
  state: AcpSessionState,
  b: EventBuilder,
  update: JsonObject,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const toolCallId = str(update.toolCallId);
  if (toolCallId === undefined) {
    return [
      providerEvent(b, "tool_call_update", raw, "tool_call_update without toolCallId", state.context(raw)),
    ];
  }
  const key = `tool:${toolCallId}`;
  if (state.closedTools.has(key)) {
    return [
      providerEvent(
        b,
        "tool_call_update",
        raw,
        "update of a tool call that already ended",
        state.context(raw),
      ),
    ];
  }
  const events: RuntimeEvent[] = [];
  let entry = state.tools.get(key);
  if (entry === undefined) {
    // An update without a start (a lost or never-sent tool_call): start the item so it can end.
    events.push(...state.closeText(b, raw));
    entry = openTool(state, key, toolCallId, update).entry;
    mergeFacts(entry.state.facts, update);
    events.push(
      b.emit(
        "item.started",
        payloadOf(state, entry.state, update, "inProgress"),
        toolContext(state, raw, entry.id, entry.state),
      ),
    );
  } else {
    mergeFacts(entry.state.facts, update);
  }
  events.push(...streamedOutput(b, entry.state, update, toolContext(state, raw, entry.id, entry.state)));
  if (isTerminal(update.status)) return [...events, ...completeTool(state, b, key, update, raw)];
  const status = own(ITEM_STATUS, str(update.status));
  events.push(
    b.emit(
      "item.updated",
      payloadOf(state, entry.state, update, status),
      toolContext(state, raw, entry.id, entry.state),
    ),
  );
  return events;
}

function completeTool(
  state: AcpSessionState,
  b: EventBuilder,
  key: string,
  update: JsonObject,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const entry = state.tools.close(key);
  if (entry === undefined) return [];
  state.closedTools.set(key, true);
  const status: ItemStatus = update.status === "failed" ? "failed" : "completed";
  const ids = toolContext(state, raw, entry.id, entry.state);
  // ACP v1 streams no command output; hosts read it from command_output deltas whatever the source, so the final
  // output arrives as one delta before the completion (unless it already came in `_meta` deltas).
  const output =
    entry.state.itemType === "command_execution" && !entry.state.facts.streamedOutput
      ? toolOutputText(update)
      : undefined;
  const outputDelta =
    output === undefined
      ? []
      : [b.emit("content.delta", { streamKind: "command_output", delta: output }, ids)];
  return [...outputDelta, b.emit("item.completed", payloadOf(state, entry.state, update, status), ids)];
}

/** A command's output from `_meta.terminal_output_delta`, as a command_output delta of its item. */
function streamedOutput(
  b: EventBuilder,
  tool: ToolState,
  update: JsonObject,
  ids: ReturnType<typeof toolContext>,
): RuntimeEvent[] {
  const delta = terminalOutputDelta(update);
  if (delta === undefined) return [];
  tool.facts.streamedOutput = true;
  return [b.emit("content.delta", { streamKind: "command_output", delta }, ids)];
}

/** Ends the tools a turn left open (the agent did not report their end before the prompt returned). */
export function endToolsOfTurn(
  state: AcpSessionState,
  b: EventBuilder,
  turnId: string,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  for (const tool of state.openToolsOf(turnId)) {
    const key = `tool:${tool.toolCallId}`;
    const entry = state.tools.close(key);
    if (entry === undefined) continue;
    state.closedTools.set(key, true);
    const { title, details } = toolView(tool.itemType, tool.facts, state.terminals);
    events.push(
      b.emit(
        "item.completed",
        itemPayload(tool.itemType, {
          status: "failed",
          ...(title === undefined ? {} : { title }),
          detail: "the turn ended before the tool call did",
          ...(details === undefined ? {} : { details }),
        }),
        toolContext(state, raw, entry.id, tool),
      ),
    );
  }
  return events;
}

export function toolContext(state: AcpSessionState, raw: RuntimeEventRaw, itemId: string, tool: ToolState) {
  return state.context(raw, {
    itemId,
    turnId: tool.turnId ?? state.currentTurnId,
    parentItemId: tool.parentItemId,
    providerRefs: { providerItemId: tool.toolCallId },
  });
}

/** The canonical item of a native toolCallId, if one was started (for linking requests to items). */
export function toolItemIdOf(state: AcpSessionState, toolCallId: string | undefined): string | undefined {
  if (toolCallId === undefined) return undefined;
  const key = `tool:${toolCallId}`;
  const open = state.tools.get(key);
  if (open !== undefined) return open.id;
  return state.closedTools.has(key) ? state.tools.idOf(key) : undefined;
}
