import type { CanonicalItemType } from "../../contracts/enums.js";
import type {
  CollabAgentToolCallDetails,
  CommandExecutionDetails,
  DynamicToolCallDetails,
  ErrorItemDetails,
  FileChange,
  FileChangeDetails,
  ImageViewDetails,
  ItemDetails,
  McpToolCallDetails,
  TextDetails,
  WebSearchDetails,
} from "../../contracts/item-details.js";
import { arr, asObject, int, isObject, type JsonObject, num, str } from "../../kit/guards.js";
import { unwrapShellCommand } from "../../kit/shell-command.js";
import { unifiedDiff, withFileHeader } from "../../kit/unified-diff.js";
import { pick, pickStr } from "./fields.js";

/**
 * What one native record says about an item's details: any subset of the fields of its item type. Records of one
 * item add up (a begin names the command, its end adds the exit code), so the core merges patches per item and
 * emits the merged details once they hold what the schema requires (see `usableDetails`).
 */
export type DetailsPatch = Partial<
  CommandExecutionDetails &
    FileChangeDetails &
    McpToolCallDetails &
    DynamicToolCallDetails &
    WebSearchDetails &
    CollabAgentToolCallDetails &
    TextDetails &
    ImageViewDetails &
    ErrorItemDetails
>;

/** Item types whose details have no required field: any known field is enough. */
const OPTIONAL_ONLY: ReadonlySet<CanonicalItemType> = new Set([
  "user_message",
  "assistant_message",
  "reasoning",
  "plan",
  "web_search",
  "collab_agent_tool_call",
  "image_view",
  "error",
]);

/** The merged patch as details of the item type, or undefined while a required field is still unknown. */
export function usableDetails(itemType: CanonicalItemType, patch: DetailsPatch): ItemDetails | undefined {
  switch (itemType) {
    case "command_execution":
      return patch.command === undefined ? undefined : (patch as CommandExecutionDetails);
    case "file_change":
      return patch.changes === undefined || patch.changes.length === 0
        ? undefined
        : (patch as FileChangeDetails);
    case "mcp_tool_call":
      return patch.server === undefined || patch.tool === undefined
        ? undefined
        : (patch as McpToolCallDetails);
    case "dynamic_tool_call":
      return patch.tool === undefined ? undefined : (patch as DynamicToolCallDetails);
    default:
      return OPTIONAL_ONLY.has(itemType) && hasField(patch) ? (patch as ItemDetails) : undefined;
  }
}

/** Whether the patch has a field (without allocating the key list). */
export function hasField(patch: DetailsPatch): boolean {
  for (const _ in patch) return true;
  return false;
}

/** The title the details imply: the unwrapped command, the changed paths, `server/tool`, the tool's name. */
export function titleFromDetails(itemType: CanonicalItemType, details: ItemDetails): string | undefined {
  const d = details as DetailsPatch;
  switch (itemType) {
    case "command_execution":
      return d.command;
    case "file_change":
      return d.changes?.map((change) => change.path).join(", ");
    case "mcp_tool_call":
      return `${d.server}/${d.tool}`;
    case "dynamic_tool_call":
      return d.tool;
    default:
      return undefined;
  }
}

// ── command_execution ───────────────────────────────────────────────────────────────────────────────────

/**
 * A command from an EventMsg exec event, a CommandExecution TurnItem, or tool arguments: `command` (an argv, or a
 * string), `cwd`, `exit_code`, `duration` (`{secs, nanos}`) or `duration_ms`. Only the fields present are set.
 */
export function commandPatch(p: JsonObject, cwdNames: readonly string[] = CWD_NAMES): DetailsPatch {
  const patch: DetailsPatch = {};
  const unwrapped = commandOf(pick(p, "command", "cmd"));
  if (unwrapped !== undefined) {
    patch.command = unwrapped.command;
    if (unwrapped.shell !== undefined) patch.shell = unwrapped.shell;
  }
  const cwd = pathOf(pick(p, ...cwdNames));
  if (cwd !== undefined) patch.cwd = cwd;
  const exitCode = int(pick(p, "exit_code", "exitCode"));
  if (exitCode !== undefined) patch.exitCode = exitCode;
  const durationMs = durationMsOf(p);
  if (durationMs !== undefined) patch.durationMs = durationMs;
  return patch;
}

const CWD_NAMES = ["cwd"] as const;

function commandOf(value: unknown): { command: string; shell?: string } | undefined {
  if (typeof value === "string") return value.length > 0 ? unwrapShellCommand(value) : undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  for (const part of value) if (typeof part !== "string") return undefined;
  return unwrapShellCommand(value as string[]);
}

/** `duration_ms` / `durationMs` (milliseconds), or serde's `Duration` `{secs, nanos}`. */
export function durationMsOf(p: JsonObject): number | undefined {
  const ms = num(pick(p, "duration_ms", "durationMs"));
  if (ms !== undefined) return ms >= 0 ? ms : undefined;
  const duration = asObject(p.duration);
  if (duration === undefined) return undefined;
  const secs = num(duration.secs);
  const nanos = num(duration.nanos) ?? 0;
  if (secs === undefined || secs < 0 || nanos < 0) return undefined;
  const total = secs * 1000 + nanos / 1e6;
  return Number.isFinite(total) ? total : undefined;
}

/** A path as given; a `file://` URI (0.171.0 TurnItems write cwd and image paths as URIs) as its path. */
export function pathOf(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0) return undefined;
  if (!value.startsWith("file://")) return value;
  const rest = value.slice("file://".length);
  const path = rest.startsWith("localhost/") ? rest.slice("localhost".length) : rest;
  if (!path.startsWith("/")) return value;
  try {
    return decodeURIComponent(path);
  } catch {
    return value;
  }
}

// ── file_change ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Codex's `changes` map, path → `{type: "add", content}` | `{type: "delete", content}` | `{type: "update",
 * unified_diff, move_path}`: an add's content is a diff from empty text, a delete's a diff to empty text, an
 * update's hunks get the file header they lack. The map's order is the provider's order.
 */
export function fileChangesPatch(value: unknown): DetailsPatch {
  const map = asObject(value);
  if (map === undefined) return {};
  const changes: FileChange[] = [];
  for (const [path, entry] of Object.entries(map)) {
    const change = asObject(entry);
    if (path.length === 0 || change === undefined) continue;
    const made = fileChangeOf(path, change);
    if (made !== undefined) changes.push(made);
  }
  return changes.length > 0 ? { changes } : {};
}

function fileChangeOf(path: string, change: JsonObject): FileChange | undefined {
  const type = str(change.type)?.toLowerCase();
  const content = str(change.content);
  if (type === "add") return withDiff({ path, kind: "add" }, content, (text) => unifiedDiff(path, "", text));
  if (type === "delete") {
    return withDiff({ path, kind: "delete" }, content, (text) => unifiedDiff(path, text, ""));
  }
  if (type !== "update") return undefined;
  const movePath = str(pick(change, "move_path", "movePath"));
  const out: FileChange =
    movePath !== undefined && movePath.length > 0
      ? { path, kind: "move", movePath }
      : { path, kind: "update" };
  const hunks = pickStr(change, "unified_diff", "unifiedDiff");
  if (hunks !== undefined && hunks.length > 0) {
    out.diff = withFileHeader(hunks, path, out.movePath ?? path);
    return out;
  }
  const oldText = str(pick(change, "old_content", "oldContent"));
  const newText = str(pick(change, "new_content", "newContent"));
  if (oldText !== undefined && newText !== undefined) {
    const diff = unifiedDiff(path, oldText, newText);
    if (diff !== undefined) out.diff = diff;
  }
  return out;
}

function withDiff(
  change: FileChange,
  text: string | undefined,
  diffOf: (text: string) => string | undefined,
): FileChange {
  if (text === undefined || text.length === 0) return change;
  const diff = diffOf(text);
  if (diff !== undefined) change.diff = diff;
  return change;
}

// ── tools ───────────────────────────────────────────────────────────────────────────────────────────────

/** MCP: `invocation {server, tool, arguments}` (EventMsg) or the TurnItem's own fields; result `{Ok}` / `{Err}`. */
export function mcpPatch(p: JsonObject): DetailsPatch {
  const source = asObject(p.invocation) ?? p;
  const patch: DetailsPatch = {};
  const server = str(source.server);
  if (server !== undefined && server.length > 0) patch.server = server;
  const tool = str(source.tool);
  if (tool !== undefined && tool.length > 0) patch.tool = tool;
  if (source.arguments !== undefined && source.arguments !== null) patch.arguments = source.arguments;
  const result = p.result;
  if (isObject(result) && ("Ok" in result || "Err" in result)) {
    if (result.Ok !== undefined && result.Ok !== null) patch.result = result.Ok;
    const err = str(result.Err);
    if (err !== undefined) patch.error = err;
  } else if (result !== undefined && result !== null) {
    patch.result = result;
  }
  const error = str(p.error) ?? str(asObject(p.error)?.message);
  if (error !== undefined) patch.error = error;
  return patch;
}

/** A dynamic tool call: `tool`, `arguments`, its `content_items` as result, `error`. */
export function dynamicToolPatch(p: JsonObject): DetailsPatch {
  const patch: DetailsPatch = {};
  const tool = pickStr(p, "tool", "name");
  if (tool !== undefined && tool.length > 0) patch.tool = tool;
  if (p.arguments !== undefined && p.arguments !== null) patch.arguments = p.arguments;
  const items = arr(pick(p, "content_items", "contentItems"));
  if (items !== undefined) patch.result = items;
  const error = str(p.error) ?? str(asObject(p.error)?.message);
  if (error !== undefined && error.length > 0) patch.error = error;
  return patch;
}

/** A web search: `query`, and the `action` (`search {query, queries}`, `open_page {url}`, `find_in_page {url}`). */
export function webSearchPatch(p: JsonObject): DetailsPatch {
  const patch: DetailsPatch = {};
  const action = asObject(p.action);
  const queries = arr(action?.queries)?.filter((q): q is string => typeof q === "string" && q.length > 0);
  const query =
    nonEmpty(str(p.query)) ??
    nonEmpty(str(action?.query)) ??
    (queries !== undefined && queries.length > 0 ? queries.join(", ") : undefined);
  if (query !== undefined) patch.query = query;
  const url = nonEmpty(str(action?.url));
  if (url !== undefined) patch.url = url;
  return patch;
}

/** A collab call: the prompt it sends, and the spawned agent's role where the end event names one. */
export function collabPatch(p: JsonObject): DetailsPatch {
  const patch: DetailsPatch = {};
  const prompt = nonEmpty(pickStr(p, "prompt"));
  if (prompt !== undefined) patch.prompt = prompt;
  const role = nonEmpty(
    pickStr(p, "new_agent_role", "newAgentRole", "agent_role", "agentRole", "agent_type"),
  );
  if (role !== undefined) patch.agentType = role;
  return patch;
}

export function textPatch(text: string | undefined): DetailsPatch {
  return text === undefined || text.length === 0 ? {} : { text };
}

export function imagePatch(p: JsonObject): DetailsPatch {
  const path = pathOf(p.path);
  return path === undefined ? {} : { path };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.length === 0 ? undefined : value;
}
