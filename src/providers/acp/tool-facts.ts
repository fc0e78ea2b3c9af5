import { arr, int, isObject, type JsonObject, str } from "../../kit/guards.js";
import type { McpToolName } from "./mcp-tool-titles.js";

/**
 * What the records of one tool call have said so far. An ACP `tool_call_update` carries only the fields that
 * changed and each replaces the earlier value, so the item's details are built from this merge rather than from
 * the one record at hand (Claude's adapter sends the command in an update, its output in a later one).
 */
export interface ToolFacts {
  kind: string | undefined;
  title: string | undefined;
  name: string | undefined;
  status: string | undefined;
  content: unknown[] | undefined;
  /**
   * The `diff` entries of the latest content that had any: a later content without diffs (OpenCode's closing
   * "Wrote file successfully.") does not take the change away.
   */
  diffs: unknown[] | undefined;
  locations: unknown[] | undefined;
  rawInput: unknown;
  rawOutput: unknown;
  /** `_meta.claudeCode.toolName`: the tool's programmatic name, where Claude's adapter gives it. */
  metaToolName: string | undefined;
  /** The server and tool its title named when it opened (`mcp-tool-titles.ts`), for an MCP call. */
  mcpTitled: McpToolName | undefined;
  /** `_meta.terminal_info.cwd` (codex-acp, when the client shows terminal output). */
  metaCwd: string | undefined;
  /** `_meta.terminal_exit.exit_code` (both adapters; codex-acp 2.x whenever the client has no terminal). */
  metaExitCode: number | undefined;
  /** Command output arrived as `_meta.terminal_output_delta` deltas: the end repeats none of it. */
  streamedOutput: boolean;
  /** The file changes last built and the inputs they were built from (rebuilt only when those change). */
  changesCache: { content: unknown; rawInput: unknown; kind: unknown; value: unknown } | undefined;
}

export function emptyFacts(): ToolFacts {
  return {
    kind: undefined,
    title: undefined,
    name: undefined,
    status: undefined,
    content: undefined,
    diffs: undefined,
    locations: undefined,
    rawInput: undefined,
    rawOutput: undefined,
    metaToolName: undefined,
    mcpTitled: undefined,
    metaCwd: undefined,
    metaExitCode: undefined,
    streamedOutput: false,
    changesCache: undefined,
  };
}

/** Folds one `tool_call` / `tool_call_update` into the facts: a field the record carries replaces the old one. */
export function mergeFacts(facts: ToolFacts, update: JsonObject): void {
  facts.kind = str(update.kind) ?? facts.kind;
  facts.title = str(update.title) ?? facts.title;
  facts.name = str(update.name) ?? facts.name;
  facts.status = str(update.status) ?? facts.status;
  facts.content = arr(update.content) ?? facts.content;
  const diffs = arr(update.content)?.filter((block) => isObject(block) && block.type === "diff");
  if (diffs !== undefined && diffs.length > 0) facts.diffs = diffs;
  facts.locations = arr(update.locations) ?? facts.locations;
  if (update.rawInput !== undefined && update.rawInput !== null) facts.rawInput = update.rawInput;
  if (update.rawOutput !== undefined && update.rawOutput !== null) facts.rawOutput = update.rawOutput;
  const meta = update._meta;
  if (!isObject(meta)) return;
  if (isObject(meta.claudeCode)) facts.metaToolName = str(meta.claudeCode.toolName) ?? facts.metaToolName;
  if (isObject(meta.terminal_info)) facts.metaCwd = str(meta.terminal_info.cwd) ?? facts.metaCwd;
  if (isObject(meta.terminal_exit))
    facts.metaExitCode = int(meta.terminal_exit.exit_code) ?? facts.metaExitCode;
}

/** The `diff` entries of a record's content, when the facts have none yet. */
export function fillDiffs(facts: ToolFacts, update: JsonObject): void {
  if (facts.diffs !== undefined) return;
  const diffs = arr(update.content)?.filter((block) => isObject(block) && block.type === "diff");
  if (diffs !== undefined && diffs.length > 0) facts.diffs = diffs;
}

/**
 * The output text of `_meta.terminal_output_delta` (`{data, terminal_id}`): how codex-acp 2.x streams a command's
 * output to a client that has no terminal capability, and claude-agent-acp to one that shows terminal output.
 */
export function terminalOutputDelta(update: JsonObject): string | undefined {
  const meta = isObject(update._meta) ? update._meta : undefined;
  const delta = isObject(meta?.terminal_output_delta) ? meta.terminal_output_delta : undefined;
  const data = str(delta?.data);
  return data === undefined || data.length === 0 ? undefined : data;
}

/** What the client knows of a terminal it created for the agent (`terminal/create` and the answers after it). */
export interface TerminalFacts {
  command: string | string[] | undefined;
  cwd: string | undefined;
  exitCode: number | undefined;
}

/**
 * A command line from an input object: `command` as a string or an argv, with `args` appended when it is the
 * `{command, args}` shape of `terminal/create`. Undefined when the object carries no command.
 */
export function commandLine(input: unknown): string | string[] | undefined {
  if (!isObject(input)) return undefined;
  const command = input.command;
  if (Array.isArray(command)) {
    return command.length > 0 && command.every((part) => typeof part === "string")
      ? (command as string[])
      : undefined;
  }
  if (typeof command !== "string" || command.length === 0) return undefined;
  const args = input.args;
  if (Array.isArray(args) && args.length > 0 && args.every((part) => typeof part === "string")) {
    return [command, ...(args as string[])];
  }
  return command;
}

/** The terminal a tool call shows (its `terminal` content entry), if the client created it. */
export function terminalOfTool(
  facts: ToolFacts,
  terminals: { get(id: string): TerminalFacts | undefined },
): TerminalFacts | undefined {
  for (const block of facts.content ?? []) {
    if (!isObject(block) || block.type !== "terminal") continue;
    const id = str(block.terminalId);
    const terminal = id === undefined ? undefined : terminals.get(id);
    if (terminal !== undefined) return terminal;
  }
  return undefined;
}
