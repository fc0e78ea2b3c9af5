import type { CanonicalItemType, CanonicalRequestType } from "../../contracts/enums.js";

const FILE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const WEB_TOOLS = new Set(["WebSearch", "WebFetch", "web_search", "web_fetch"]);
const AGENT_TOOLS = new Set(["Task", "Agent"]);
/** Tools whose calls maintain the turn's plan (TodoWrite; Claude Code 2.1's task list tools). */
export const PLAN_TOOLS = new Set(["TodoWrite", "TaskCreate", "TaskUpdate"]);
export const QUESTION_TOOL = "AskUserQuestion";

/** Claude tool name → canonical item type (issue #5). `mcp_tool_use` blocks are MCP calls whatever the name. */
export function itemTypeOfTool(toolName: string, blockType?: string): CanonicalItemType {
  if (blockType === "mcp_tool_use" || toolName.startsWith("mcp__")) return "mcp_tool_call";
  if (toolName === "Bash" || toolName === "PowerShell") return "command_execution";
  if (FILE_TOOLS.has(toolName)) return "file_change";
  if (WEB_TOOLS.has(toolName)) return "web_search";
  if (AGENT_TOOLS.has(toolName)) return "collab_agent_tool_call";
  if (PLAN_TOOLS.has(toolName)) return "plan";
  return "dynamic_tool_call";
}

/**
 * Claude tool name → the request type of its `canUseTool` call. Tools that are neither shell nor file edits ask
 * for a permission to use the tool, which is what `permissions_approval` names.
 */
export function requestTypeOfTool(toolName: string): CanonicalRequestType {
  if (toolName === QUESTION_TOOL) return "tool_user_input";
  const itemType = itemTypeOfTool(toolName);
  if (itemType === "command_execution") return "command_execution_approval";
  if (itemType === "file_change") return "file_change_approval";
  return "permissions_approval";
}
