/**
 * Item details (DESIGN §2) of Claude Code's tool calls, per tool. From the name alone while the input streams,
 * from the complete input (the `tool_use` block once its stream stopped, or its snapshot), and at the end from
 * the `tool_result` block and the user message's `tool_use_result` object. Nothing is guessed: a field the input
 * or the result does not carry stays absent.
 *
 * Fields Claude Code does not report, so always absent: for Bash, `exitCode` and `durationMs` (its result object
 * has stdout, stderr, interrupted, backgroundTaskId, but no exit status or duration), `cwd` (the input has no
 * directory) and `shell` (Claude runs the command as written, with no wrapper to take off).
 */
import type {
  CollabAgentToolCallDetails,
  DynamicToolCallDetails,
  DynamicToolKind,
  ItemDetails,
  McpToolCallDetails,
} from "../../contracts/item-details.js";
import { arr, asObject, isObject, type JsonObject, own, str } from "../../kit/guards.js";
import { splitMcpToolName } from "../../kit/mcp-tool-name.js";
import { fileChangeFromInput, fileChangeFromResult } from "./file-changes.js";
import type { ToolState } from "./state.js";

const TOOL_KINDS: Record<string, DynamicToolKind> = {
  Read: "read",
  Grep: "search",
  Glob: "search",
  LS: "read",
  NotebookRead: "read",
};

/** Details known before the input is complete: the tool's name (and an MCP call's server). */
export function detailsFromName(tool: ToolState): ItemDetails | undefined {
  if (tool.itemType === "mcp_tool_call") return mcpName(tool);
  if (tool.itemType === "dynamic_tool_call") return dynamicBase(tool);
  return undefined;
}

/** Details from the complete input. */
export function detailsFromInput(tool: ToolState, input: unknown): ItemDetails | undefined {
  const fields = asObject(input) ?? {};
  switch (tool.itemType) {
    case "command_execution": {
      const command = str(fields.command);
      return command === undefined ? undefined : { command };
    }
    case "file_change":
      return fileChangeFromInput(tool.toolName, fields);
    case "web_search":
      return webSearch(fields);
    case "collab_agent_tool_call":
      return collab(fields);
    case "plan": {
      const text = planText(tool.toolName, fields);
      return text === undefined ? undefined : { text };
    }
    case "mcp_tool_call": {
      const base = mcpName(tool);
      return base === undefined ? undefined : { ...base, arguments: input };
    }
    case "dynamic_tool_call":
      return dynamicFromInput(tool, fields, input);
    default:
      return undefined;
  }
}

/** Details once the result arrived: the input's, with what the result adds. */
export function detailsFromResult(
  tool: ToolState,
  block: JsonObject,
  output: string,
  toolUseResult: unknown,
): ItemDetails | undefined {
  const isError = block.is_error === true;
  const details = tool.details;
  if (details === undefined) return undefined;
  switch (tool.itemType) {
    case "file_change":
      return isError || !("changes" in details)
        ? details
        : fileChangeFromResult(tool.toolName, details, toolUseResult);
    case "collab_agent_tool_call":
      return collabFromResult(details as CollabAgentToolCallDetails, toolUseResult);
    case "mcp_tool_call":
    case "dynamic_tool_call": {
      const call = details as McpToolCallDetails | DynamicToolCallDetails;
      return isError ? { ...call, error: output } : { ...call, result: resultOf(block.content, output) };
    }
    default:
      return details;
  }
}

/**
 * What the tool returned to the model: its text when the `tool_result` content is text (a string, or text blocks
 * only), else the content blocks as Claude sent them (images, tool references). Claude Code's structured result
 * object (`tool_use_result`) is tool-specific and stays in `data.result`.
 */
function resultOf(content: unknown, output: string): unknown {
  if (typeof content === "string" || !Array.isArray(content)) return output;
  return content.every((b) => isObject(b) && b.type === "text") ? output : content;
}

/** What a UI shows for a tool item: the command, the file(s) changed, else the tool's name. */
export function titleOf(tool: ToolState): string {
  const details = tool.details;
  if (details !== undefined) {
    if ("command" in details && details.command.length > 0) return details.command;
    if ("changes" in details && details.changes.length > 0)
      return details.changes.map((change) => change.path).join(", ");
  }
  return tool.toolName;
}

/** `mcp__<server>__<tool>` (Claude Code's naming), or an `mcp_tool_use` block's `server_name` and name. */
function mcpName(tool: ToolState): McpToolCallDetails | undefined {
  if (tool.serverName !== undefined) return { server: tool.serverName, tool: tool.toolName };
  return splitMcpToolName(tool.toolName);
}

function dynamicBase(tool: ToolState): DynamicToolCallDetails {
  const kind = own(TOOL_KINDS, tool.toolName);
  return kind === undefined ? { tool: tool.toolName } : { tool: tool.toolName, kind };
}

function dynamicFromInput(tool: ToolState, fields: JsonObject, input: unknown): DynamicToolCallDetails {
  const details: DynamicToolCallDetails = { ...dynamicBase(tool), arguments: input };
  // Read names a file; Grep and Glob name a directory or file only when the model gave one (else the cwd).
  const path =
    str(fields.file_path) ??
    str(fields.notebook_path) ??
    (details.kind === undefined ? undefined : str(fields.path));
  if (details.kind !== undefined && path !== undefined && path.length > 0) details.paths = [path];
  return details;
}

/** WebSearch `{query}`, WebFetch `{url, prompt}`, and the API's server tools `web_search` / `web_fetch`. */
function webSearch(fields: JsonObject): ItemDetails {
  const query = str(fields.query);
  const url = str(fields.url);
  return { ...(query === undefined ? {} : { query }), ...(url === undefined ? {} : { url }) };
}

function collab(fields: JsonObject): CollabAgentToolCallDetails {
  const details: CollabAgentToolCallDetails = {};
  const agentType = str(fields.subagent_type);
  const description = str(fields.description);
  const prompt = str(fields.prompt);
  if (agentType !== undefined) details.agentType = agentType;
  if (description !== undefined) details.description = description;
  if (prompt !== undefined) details.prompt = prompt;
  return details;
}

/** The agent's result names the agent type it ran, also when the input left `subagent_type` to the default. */
function collabFromResult(details: CollabAgentToolCallDetails, toolUseResult: unknown): ItemDetails {
  if (details.agentType !== undefined) return details;
  const agentType = str(asObject(toolUseResult)?.agentType);
  return agentType === undefined ? details : { ...details, agentType };
}

/** TodoWrite: its steps' text, one a line (their statuses go to turn.plan.updated); TaskCreate: its subject. */
function planText(toolName: string, fields: JsonObject): string | undefined {
  if (toolName === "TodoWrite") {
    const steps = (arr(fields.todos) ?? []).flatMap((todo) =>
      isObject(todo) && typeof todo.content === "string" ? [todo.content] : [],
    );
    return steps.length === 0 ? undefined : steps.join("\n");
  }
  if (toolName === "TaskCreate") return str(fields.subject);
  return undefined;
}
