import type { CanonicalItemType } from "../../contracts/enums.js";
import { asObject, int, type JsonObject, num, str } from "../../kit/guards.js";
import { splitMcpToolName } from "../../kit/mcp-tool-name.js";
import { applyPatchChanges } from "./apply-patch.js";
import { commandPatch, type DetailsPatch, imagePatch, webSearchPatch } from "./details.js";
import { pickStr } from "./fields.js";

/** Where a rollout tool call's working directory is: `workdir` (shell tools), `working_directory` (local shell). */
const CALL_CWD = ["workdir", "working_directory", "cwd"] as const;

/**
 * Details of a rollout tool call (`function_call` with JSON `arguments`, `custom_tool_call` with a raw `input`,
 * `local_shell_call` with an `action`), read from what the call says: the shell tools' `command` / `cmd` and
 * `workdir`, apply_patch's file headers, an MCP tool's `mcp__server__tool` name, the arguments as given.
 */
export function callPatch(itemType: CanonicalItemType, name: string, payload: JsonObject): DetailsPatch {
  const rawArgs = payload.arguments ?? payload.input;
  const args = asObject(payload.action) ?? argumentsObject(rawArgs);
  switch (itemType) {
    case "command_execution":
      return args === undefined ? {} : commandPatch(args, CALL_CWD);
    case "file_change": {
      const patch = str(payload.input) ?? (args === undefined ? undefined : pickStr(args, "input", "patch"));
      const changes = patch === undefined ? [] : applyPatchChanges(patch);
      return changes.length > 0 ? { changes } : {};
    }
    case "mcp_tool_call": {
      const target = mcpTarget(name);
      if (target === undefined) return {};
      return rawArgs === undefined ? target : { ...target, arguments: args ?? rawArgs };
    }
    case "dynamic_tool_call":
      return rawArgs === undefined ? { tool: name } : { tool: name, arguments: args ?? rawArgs };
    case "web_search":
      return args === undefined ? {} : webSearchPatch(args);
    case "image_view":
      return args === undefined ? {} : imagePatch(args);
    case "collab_agent_tool_call":
      return args === undefined ? {} : collabCallPatch(args);
    default:
      return {};
  }
}

/** A tool output: its text, whether it failed, and what it says of the details of the call's item. */
export interface CallOutput {
  text: string;
  failed: boolean;
  details: DetailsPatch;
}

/**
 * A tool output: a plain string, a JSON string `{output, metadata: {exit_code, duration_seconds}}` (older shell
 * tools), or `{content, success}`. A command's plain-text output starts with a header Codex writes for the model
 * (`Process exited with code N`, `Wall time: S seconds`, up to `Output:`); its exit code and time are read there.
 */
export function outputOf(value: unknown, itemType: CanonicalItemType): CallOutput {
  const object = asObject(value) ?? parseObject(value);
  const isCommand = itemType === "command_execution";
  if (object !== undefined) {
    const text = pickStr(object, "output", "content") ?? (typeof value === "string" ? value : "");
    const metadata = asObject(object.metadata);
    const exitCode = int(metadata?.exit_code);
    const seconds = num(metadata?.duration_seconds);
    const details: DetailsPatch = {};
    if (isCommand && exitCode !== undefined) details.exitCode = exitCode;
    const ms = seconds === undefined ? undefined : seconds * 1000;
    if (isCommand && ms !== undefined && ms >= 0 && Number.isFinite(ms)) details.durationMs = ms;
    if (isToolResult(itemType)) details.result = value;
    const failed = (typeof exitCode === "number" && exitCode !== 0) || object.success === false;
    return { text, failed, details };
  }
  const text = typeof value === "string" ? value : "";
  if (isCommand) {
    const details = commandHeader(text);
    return { text, failed: details.exitCode !== undefined && details.exitCode !== 0, details };
  }
  return {
    text,
    failed: false,
    details: isToolResult(itemType) && value !== undefined ? { result: value } : {},
  };
}

function isToolResult(itemType: CanonicalItemType): boolean {
  return itemType === "mcp_tool_call" || itemType === "dynamic_tool_call";
}

const EXIT = /^(?:Process exited with code|Exit code:) (-?\d+)$/m;
const WALL = /^Wall time: (\d+(?:\.\d+)?) seconds$/m;

function commandHeader(text: string): DetailsPatch {
  const end = text.indexOf("\nOutput:");
  if (end < 0) return {};
  const header = text.slice(0, end);
  const details: DetailsPatch = {};
  const exit = EXIT.exec(header);
  if (exit !== null) {
    const code = Number(exit[1]);
    if (Number.isSafeInteger(code)) details.exitCode = code;
  }
  const wall = WALL.exec(header);
  const wallMs = wall === null ? Number.NaN : Number(wall[1]) * 1000;
  if (Number.isFinite(wallMs)) details.durationMs = wallMs;
  return details;
}

/** `mcp__<server>__<tool>`, or `server/tool` when it splits one way. */
function mcpTarget(name: string): { server: string; tool: string } | undefined {
  if (name.startsWith("mcp__")) return splitMcpToolName(name);
  const parts = name.split("/");
  if (parts.length !== 2) return undefined;
  const [server = "", tool = ""] = parts;
  return server.length > 0 && tool.length > 0 ? { server, tool } : undefined;
}

/** spawn_agent / send_input: the `message` (or `prompt`) the subagent gets and the `agent_type` asked for. */
function collabCallPatch(args: JsonObject): DetailsPatch {
  const patch: DetailsPatch = {};
  const prompt = pickStr(args, "message", "prompt");
  if (prompt !== undefined && prompt.length > 0) patch.prompt = prompt;
  const agentType = pickStr(args, "agent_type", "agentType");
  if (agentType !== undefined && agentType.length > 0) patch.agentType = agentType;
  return patch;
}

function argumentsObject(value: unknown): JsonObject | undefined {
  return asObject(value) ?? parseObject(value);
}

function parseObject(value: unknown): JsonObject | undefined {
  if (typeof value !== "string" || !value.startsWith("{")) return undefined;
  try {
    return asObject(JSON.parse(value));
  } catch {
    return undefined;
  }
}
