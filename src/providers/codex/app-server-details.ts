import type {
  CommandExecutionDetails,
  DynamicToolCallDetails,
  FileChange,
  FileChangeKind,
  ItemDetails,
  McpToolCallDetails,
  WebSearchDetails,
} from "../../contracts/item-details.js";
import { arr, int, isObject, type JsonObject, num, str } from "../../kit/guards.js";
import { unwrapShellCommand } from "../../kit/shell-command.js";
import { unifiedDiff, withFileHeader } from "../../kit/unified-diff.js";

/**
 * What a v2 ThreadItem of Codex 0.171.0 says, in the canonical item vocabulary: a short `title`, a one-line
 * `detail`, and the typed `details` (DESIGN.md §2). Only fields the native item carries are filled; Codex reports
 * `null` for what it does not know yet (an exit code while a command runs), and null stays absent.
 */
export interface DescribedItem {
  title?: string;
  detail?: string;
  details?: ItemDetails;
}

type Describer = (item: JsonObject) => DescribedItem;

/** A non-empty string, else undefined: Codex sends `""` for text it has not streamed yet. */
function text(value: unknown): string | undefined {
  const s = str(value);
  return s === undefined || s.length === 0 ? undefined : s;
}

/** The texts of a list (strings, or objects with a `text`) joined, or undefined when there is none. */
function joinedText(
  value: unknown,
  separator: string,
  pick?: (entry: JsonObject) => boolean,
): string | undefined {
  let out: string | undefined;
  for (const entry of arr(value) ?? []) {
    const part = isObject(entry)
      ? pick === undefined || pick(entry)
        ? str(entry.text)
        : undefined
      : str(entry);
    if (part === undefined || part.length === 0) continue;
    out = out === undefined ? part : `${out}${separator}${part}`;
  }
  return out;
}

function textDescriber(field: string): Describer {
  return (item) => {
    const whole = text(item[field]);
    return whole === undefined ? { details: {} } : { detail: whole, details: { text: whole } };
  };
}

function commandExecution(item: JsonObject): DescribedItem {
  const native = str(item.command);
  const cwd = text(item.cwd);
  if (native === undefined)
    return cwd === undefined ? { title: "command" } : { title: "command", detail: cwd };
  const unwrapped = unwrapShellCommand(native);
  const details: CommandExecutionDetails = { command: unwrapped.command };
  if (unwrapped.shell !== undefined) details.shell = unwrapped.shell;
  if (cwd !== undefined) details.cwd = cwd;
  const exitCode = int(item.exitCode);
  if (exitCode !== undefined) details.exitCode = exitCode;
  const durationMs = num(item.durationMs);
  if (durationMs !== undefined) details.durationMs = durationMs;
  return cwd === undefined
    ? { title: unwrapped.command, details }
    : { title: unwrapped.command, detail: cwd, details };
}

/** `a/…` / `b/…` names as a unified diff header writes them (absolute paths lose their leading slash). */
/**
 * Codex's `diff` per change: the whole new file for an add, the whole old file for a delete, and for an update
 * the hunks `similar` writes (`@@ -1,2 +1,2 @@ …`, no file header). All become unified diffs with headers. An
 * update whose text is not hunks (an apply_patch preview) or is empty (a pure rename) gets no diff.
 */
function changeDiff(path: string, kind: FileChangeKind, movePath: string | undefined, native: string) {
  if (native.length === 0) return undefined;
  if (kind === "add") return unifiedDiff(path, "", native);
  if (kind === "delete") return unifiedDiff(path, native, "");
  if (!native.startsWith("--- ") && !native.startsWith("@@ -")) return undefined;
  return withFileHeader(native, path, movePath ?? path);
}

/** PatchChangeKind `{type: add|delete|update, move_path?}`; an update with a move path is a move. */
function changeKind(native: unknown): { kind: FileChangeKind; movePath?: string } | undefined {
  const type = isObject(native) ? str(native.type) : str(native);
  if (type === "add" || type === "delete") return { kind: type };
  if (type !== "update") return undefined;
  const movePath = isObject(native) ? (text(native.move_path) ?? text(native.movePath)) : undefined;
  return movePath === undefined ? { kind: "update" } : { kind: "move", movePath };
}

/** The changes of a fileChange item (or a patch preview, `withDiff` false: no diff is computed per preview). */
export function fileChanges(value: unknown, withDiff: boolean): FileChange[] {
  const changes: FileChange[] = [];
  for (const entry of arr(value) ?? []) {
    if (!isObject(entry)) continue;
    const path = str(entry.path);
    const kind = changeKind(entry.kind);
    if (path === undefined || kind === undefined) continue;
    const change: FileChange = { path, kind: kind.kind };
    if (kind.movePath !== undefined) change.movePath = kind.movePath;
    const native = withDiff ? str(entry.diff) : undefined;
    const diff = native === undefined ? undefined : changeDiff(path, kind.kind, kind.movePath, native);
    if (diff !== undefined) change.diff = diff;
    changes.push(change);
  }
  return changes;
}

function fileChange(item: JsonObject): DescribedItem {
  const changes = fileChanges(item.changes, true);
  const paths = changes.map((c) => c.path).join(", ");
  return { title: paths.length > 0 ? paths : "file change", details: { changes } };
}

function mcpToolCall(item: JsonObject): DescribedItem {
  const server = str(item.server);
  const tool = str(item.tool);
  const title = `${server ?? "mcp"}/${tool ?? "tool"}`;
  if (server === undefined || tool === undefined) return { title };
  const details: McpToolCallDetails = { server, tool };
  if (item.arguments !== undefined && item.arguments !== null) details.arguments = item.arguments;
  if (isObject(item.result)) details.result = item.result;
  const error = isObject(item.error) ? str(item.error.message) : str(item.error);
  if (error !== undefined) details.error = error;
  return { title, details };
}

/** A dynamic tool call: no error text natively (only `success: false`), so `error` stays absent. */
function dynamicToolCall(item: JsonObject): DescribedItem {
  const tool = str(item.tool);
  if (tool === undefined) return {};
  const details: DynamicToolCallDetails = { tool };
  if (item.arguments !== undefined && item.arguments !== null) details.arguments = item.arguments;
  const result = arr(item.contentItems);
  if (result !== undefined) details.result = result;
  return { title: tool, details };
}

/** The output of a function call: a tool name and its output; the call's arguments are not on this item. */
function functionCallOutput(item: JsonObject): DescribedItem {
  const tool = str(item.name);
  if (tool === undefined) return {};
  const details: DynamicToolCallDetails = { tool };
  if (item.output !== undefined && item.output !== null) details.result = item.output;
  return { title: tool, details };
}

function sleep(item: JsonObject): DescribedItem {
  const durationMs = num(item.durationMs);
  const details: DynamicToolCallDetails = { tool: "sleep" };
  if (durationMs !== undefined) details.arguments = { durationMs };
  return { title: "sleep", details };
}

/** A collab call: the tool (spawnAgent, sendInput, …) is no agent type, and Codex gives no description. */
function collabAgentToolCall(item: JsonObject): DescribedItem {
  const prompt = text(item.prompt);
  const described: DescribedItem = {};
  const tool = str(item.tool);
  if (tool !== undefined) described.title = tool;
  if (prompt !== undefined) described.detail = prompt;
  described.details = prompt === undefined ? {} : { prompt };
  return described;
}

/** What a subagent did (started, interacted, …): no prompt, type or description on the item. */
function subAgentActivity(item: JsonObject): DescribedItem {
  const title = `subagent ${str(item.kind) ?? "activity"}`;
  const path = str(item.agentPath);
  return path === undefined ? { title, details: {} } : { title, detail: path, details: {} };
}

/** WebSearchAction: `search {query?, queries?}`, `openPage {url?}`, `findInPage {url?, pattern?}`, `other`. */
function webSearch(item: JsonObject): DescribedItem {
  const action = isObject(item.action) ? item.action : {};
  const details: WebSearchDetails = {};
  const query = text(item.query) ?? text(action.query) ?? joinedText(action.queries, "\n");
  if (query !== undefined) details.query = query;
  const url = text(action.url);
  if (url !== undefined) details.url = url;
  const detail = query ?? url;
  return detail === undefined ? { title: "web search", details } : { title: "web search", detail, details };
}

function imageView(field: string, title: string): Describer {
  return (item) => {
    const path = text(item[field]);
    return path === undefined ? { title, details: {} } : { title, detail: path, details: { path } };
  };
}

/** `imageGeneration`: the saved file when there is one; the revised prompt is only a detail line. */
function imageGeneration(item: JsonObject): DescribedItem {
  const path = text(item.savedPath);
  const title = "image generation";
  if (path !== undefined) return { title, detail: path, details: { path } };
  const prompt = text(item.revisedPrompt);
  return prompt === undefined ? { title, details: {} } : { title, detail: prompt, details: {} };
}

/** Reasoning: the summary Codex shows (paragraphs), or the raw reasoning text when there is no summary. */
function reasoning(item: JsonObject): DescribedItem {
  const whole = joinedText(item.summary, "\n\n") ?? joinedText(item.content, "\n\n");
  return { details: whole === undefined ? {} : { text: whole } };
}

/** The text parts of the user's input (images and mentions are not text: they stay in `data`). */
function userMessage(item: JsonObject): DescribedItem {
  const whole = joinedText(item.content, "\n", (part) => part.type === "text");
  return { details: whole === undefined ? {} : { text: whole } };
}

function hookPrompt(item: JsonObject): DescribedItem {
  const whole = joinedText(item.fragments, "\n");
  return { details: whole === undefined ? {} : { text: whole } };
}

/** Every v2 ThreadItem type with something to describe; the review and compaction markers have no details. */
const DESCRIBERS: Record<string, Describer> = {
  userMessage,
  hookPrompt,
  agentMessage: textDescriber("text"),
  plan: textDescriber("text"),
  reasoning,
  commandExecution,
  fileChange,
  mcpToolCall,
  dynamicToolCall,
  functionCallOutput,
  sleep,
  collabAgentToolCall,
  subAgentActivity,
  webSearch,
  imageView: imageView("path", "image"),
  imageGeneration,
};

/** Title, detail and details of a native item, computed once per item event. */
export function describeItem(item: JsonObject): DescribedItem {
  const type = str(item.type);
  const describer = type === undefined ? undefined : DESCRIBERS[type];
  return describer === undefined ? {} : describer(item);
}
