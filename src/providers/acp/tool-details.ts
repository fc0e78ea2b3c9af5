import type { CanonicalItemType } from "../../contracts/enums.js";
import type {
  CommandExecutionDetails,
  DynamicToolKind,
  FileChange,
  FileChangeKind,
  ItemDetails,
} from "../../contracts/item-details.js";
import { arr, int, isObject, type JsonObject, own, str } from "../../kit/guards.js";
import { splitMcpToolName } from "../../kit/mcp-tool-name.js";
import { unwrapShellCommand } from "../../kit/shell-command.js";
import { unifiedDiff } from "../../kit/unified-diff.js";
import { durationMsOf, fileChangesPatch } from "../codex-eventmsg/details.js";
import { commandLine, type TerminalFacts, type ToolFacts, terminalOfTool } from "./tool-facts.js";

/**
 * The title and typed details of a tool item (DESIGN.md §2), from what its records said, by ACP ToolKind and
 * content type rather than by adapter. Nothing is guessed: a field no record carries stays absent.
 */
export interface ToolView {
  title: string | undefined;
  details: ItemDetails | undefined;
}

type Terminals = { get(id: string): TerminalFacts | undefined };

export function toolView(itemType: CanonicalItemType, facts: ToolFacts, terminals: Terminals): ToolView {
  switch (itemType) {
    case "command_execution":
      return commandView(facts, terminals);
    case "file_change":
      return fileChangeView(facts);
    case "mcp_tool_call":
      return { title: facts.title, details: mcpDetails(facts) };
    case "web_search":
      return { title: facts.title, details: webSearchDetails(facts) };
    default:
      return { title: facts.title, details: dynamicDetails(facts) };
  }
}

/**
 * `execute`: the command from `rawInput.command` (Claude's and Cursor's adapters send a string, codex-acp Codex's
 * argv `["/bin/bash", "-lc", "…"]`), else from the client terminal the tool shows; the wrapper goes to `shell`.
 * Until a record names the command (Claude's adapter opens with `rawInput: {}`), there are no details.
 */
function commandView(facts: ToolFacts, terminals: Terminals): ToolView {
  const input = isObject(facts.rawInput) ? facts.rawInput : undefined;
  const terminal = terminalOfTool(facts, terminals);
  const native = commandLine(input) ?? terminal?.command;
  if (native === undefined) return { title: facts.title, details: undefined };
  const { command, shell } = unwrapShellCommand(native);
  const output = isObject(facts.rawOutput) ? facts.rawOutput : undefined;

  // Where the exit code is: Cursor `rawOutput.exitCode`, codex-acp `rawOutput.exit_code`, OpenCode
  // `rawOutput.metadata.exit`, GitHub Copilot CLI a `shell_exit` entry of `rawOutput.contents`, `_meta.terminal_exit`
  // when the client shows terminal output, a client terminal's exit status. Claude's adapter reports none
  // otherwise (its rawOutput is the output text).
  const exitCode =
    int(output?.exitCode) ??
    int(output?.exit_code) ??
    (isObject(output?.metadata) ? int(output.metadata.exit) : undefined) ??
    shellExitOf(output) ??
    facts.metaExitCode ??
    terminal?.exitCode;
  const shellCwd = shellExitCwdOf(output);
  const cwd = str(input?.cwd) ?? facts.metaCwd ?? terminal?.cwd ?? shellCwd;
  const durationMs = durationOf(output);
  const details: CommandExecutionDetails = { command };
  if (shell !== undefined) details.shell = shell;
  if (cwd !== undefined) details.cwd = cwd;
  if (exitCode !== undefined) details.exitCode = exitCode;
  if (durationMs !== undefined) details.durationMs = durationMs;
  return { title: command, details };
}

/** GitHub Copilot CLI's `rawOutput.contents` entry `{type: "shell_exit", exitCode, cwd}`. */
function shellExitEntry(output: JsonObject | undefined): JsonObject | undefined {
  const contents = arr(output?.contents) ?? [];
  return contents.find((entry): entry is JsonObject => isObject(entry) && entry.type === "shell_exit");
}

function shellExitOf(output: JsonObject | undefined): number | undefined {
  return int(shellExitEntry(output)?.exitCode);
}

function shellExitCwdOf(output: JsonObject | undefined): string | undefined {
  return str(shellExitEntry(output)?.cwd);
}

/** `durationMs` / `duration_ms` in ms, or Codex's `duration` `{secs, nanos}` (codex-acp's rawOutput). */
function durationOf(output: JsonObject | undefined): number | undefined {
  if (output === undefined) return undefined;
  return durationMsOf(output);
}

function fileChangeView(facts: ToolFacts): ToolView {
  const changes = cachedChanges(facts);
  const paths = changes.length > 0 ? changes.map((change) => change.path) : locationPaths(facts.locations);
  const title = paths === undefined || paths.length === 0 ? facts.title : [...new Set(paths)].join(", ");
  return { title, details: changes.length === 0 ? undefined : { changes } };
}

/** The changes, rebuilt only when the content, input or kind they came from changed (a diff costs). */
function cachedChanges(facts: ToolFacts): FileChange[] {
  const cache = facts.changesCache;
  if (
    cache !== undefined &&
    cache.content === facts.diffs &&
    cache.rawInput === facts.rawInput &&
    cache.kind === facts.kind
  ) {
    return cache.value as FileChange[];
  }
  const value = patchChanges(facts.rawInput) ?? diffChanges(facts);
  facts.changesCache = { content: facts.diffs, rawInput: facts.rawInput, kind: facts.kind, value };
  return value;
}

/**
 * From `diff` content `{path, oldText?, newText}`: no (or an empty) old text is a new file; ToolKind `delete` / `move` say so
 * (ACP's diff has no destination field, so a move's `movePath` stays absent). Without diffs, a delete or move
 * still names its files by `locations`.
 */
function diffChanges(facts: ToolFacts): FileChange[] {
  const changes: FileChange[] = [];
  for (const block of facts.diffs ?? []) {
    if (!isObject(block) || block.type !== "diff") continue;
    const path = str(block.path);
    const newText = str(block.newText);
    if (path === undefined || newText === undefined) continue;
    const oldText = str(block.oldText);
    // OpenCode 1.18 and GitHub Copilot CLI 1.0 send `oldText: ""` rather than none for a file they create (so an
    // edit of an empty file reads as an add too).
    const kind: FileChangeKind =
      facts.kind === "delete" || facts.kind === "move"
        ? facts.kind
        : oldText === undefined || oldText === ""
          ? "add"
          : "update";
    const diff = textDiff(path, oldText ?? "", newText);
    changes.push(diff === undefined ? { path, kind } : { path, kind, diff });
  }
  if (changes.length === 0 && (facts.kind === "delete" || facts.kind === "move")) {
    const kind = facts.kind;
    for (const path of locationPaths(facts.locations) ?? []) changes.push({ path, kind });
  }
  return changes;
}

/** A unified diff of the two texts; none when they are equal (a move that changes no line) or too far apart. */
function textDiff(path: string, oldText: string, newText: string): string | undefined {
  if (oldText === newText) return undefined;
  return unifiedDiff(path, oldText, newText);
}

const PATCH_KINDS = new Set(["add", "delete", "update"]);

/**
 * Codex's own patch record, which codex-acp forwards as `rawInput.changes` (`{[path]: {type: add|delete, content}
 * | {type: update, unified_diff, move_path?}}`): it has what ACP's diff content cannot say (deletions, the move's
 * destination, the real unified diff where the content splits an update into hunk fragments). Recognized by its
 * shape; undefined when the input is not one. Read as the EventMsg mapper reads the same record.
 */
function patchChanges(rawInput: unknown): FileChange[] | undefined {
  const map = isObject(rawInput) && isObject(rawInput.changes) ? rawInput.changes : undefined;
  if (map === undefined) return undefined;
  for (const change of Object.values(map)) {
    if (!isObject(change) || !PATCH_KINDS.has(str(change.type) ?? "")) return undefined;
  }
  return fileChangesPatch(map).changes;
}

function locationPaths(locations: unknown[] | undefined): string[] | undefined {
  if (locations === undefined) return undefined;
  const paths: string[] = [];
  for (const location of locations) {
    const path = isObject(location) ? str(location.path) : undefined;
    if (path !== undefined && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** The input of an MCP call as Codex reports it (`{server, tool, arguments?}`): only then is a call MCP. */
export function mcpInvocation(
  rawInput: unknown,
): { server: string; tool: string; arguments: unknown } | undefined {
  if (!isObject(rawInput)) return undefined;
  const server = str(rawInput.server);
  const tool = str(rawInput.tool);
  if (server === undefined || tool === undefined || server.length === 0 || tool.length === 0)
    return undefined;
  for (const key of Object.keys(rawInput)) {
    if (key !== "server" && key !== "tool" && key !== "arguments") return undefined;
  }
  return { server, tool, arguments: rawInput.arguments };
}

function mcpDetails(facts: ToolFacts): ItemDetails | undefined {
  const named =
    (facts.metaToolName === undefined ? undefined : splitMcpToolName(facts.metaToolName)) ?? facts.mcpTitled;
  // claude-agent-acp: the server and tool from Claude's tool name (OpenCode, Copilot: from the title), the input
  // is the tool's own arguments
  const invocation =
    mcpInvocation(facts.rawInput) ??
    (named === undefined
      ? undefined
      : {
          ...named,
          arguments:
            isObject(facts.rawInput) && Object.keys(facts.rawInput).length > 0 ? facts.rawInput : undefined,
        });
  if (invocation === undefined) return undefined;
  return {
    server: invocation.server,
    tool: invocation.tool,
    ...(invocation.arguments === undefined ? {} : { arguments: invocation.arguments }),
    ...outcome(facts),
  };
}

/** `fetch`: Claude's WebFetch `{url}` / WebSearch `{query}`, codex-acp `{query, action: {url?}}`. */
function webSearchDetails(facts: ToolFacts): ItemDetails {
  const input = isObject(facts.rawInput) ? facts.rawInput : undefined;
  const query = str(input?.query);
  const url = str(input?.url) ?? (isObject(input?.action) ? str(input.action.url) : undefined);
  return {
    ...(query === undefined || query.length === 0 ? {} : { query }),
    ...(url === undefined ? {} : { url }),
  };
}

const DYNAMIC_KIND: Record<string, DynamicToolKind> = {
  read: "read",
  search: "search",
  fetch: "fetch",
  other: "other",
  think: "other",
  switch_mode: "other",
};

/**
 * Any other tool. Its name: ACP's `name`, else Claude's `_meta.claudeCode.toolName`, else the title (the only
 * label an ACP tool call is sure to have). `paths` from `locations`; `kind` from the ToolKind.
 */
function dynamicDetails(facts: ToolFacts): ItemDetails | undefined {
  const tool = facts.name ?? facts.metaToolName ?? facts.title;
  if (tool === undefined) return undefined;
  const kind = own(DYNAMIC_KIND, facts.kind);
  const paths = locationPaths(facts.locations);
  return {
    tool,
    ...(facts.rawInput === undefined ? {} : { arguments: facts.rawInput }),
    ...outcome(facts),
    ...(kind === undefined ? {} : { kind }),
    ...(paths === undefined || paths.length === 0 ? {} : { paths }),
  };
}

/**
 * `result` is the raw output; a failed call's `error` is its output text where it is text (Claude's adapter:
 * "User refused permission…"), else an `error` string in it, else the text content the call shows.
 */
function outcome(facts: ToolFacts): { result?: unknown; error?: string } {
  const output = facts.rawOutput;
  if (facts.status !== "failed") return output === undefined ? {} : { result: output };
  if (typeof output === "string") return { error: output };
  const error = (isObject(output) ? str(output.error) : undefined) ?? contentText(facts.content);
  return {
    ...(output === undefined ? {} : { result: output }),
    ...(error === undefined ? {} : { error }),
  };
}

function contentText(content: unknown[] | undefined): string | undefined {
  const texts: string[] = [];
  for (const block of content ?? []) {
    const inner = isObject(block) && isObject(block.content) ? block.content : undefined;
    const text = str(inner?.text);
    if (text !== undefined && text.length > 0) texts.push(text);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}
