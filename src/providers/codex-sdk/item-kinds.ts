import type { CanonicalItemType, ContentStreamKind, ItemStatus } from "../../contracts/enums.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { FileChange, FileChangeKind, ItemDetails } from "../../contracts/item-details.js";
import type { PlanStep } from "../../contracts/payloads.js";
import { arr, int, isObject, type JsonObject, num, str } from "../../kit/guards.js";
import { unwrapShellCommand } from "../../kit/shell-command.js";

/** What one snapshot of a native item says: its label, its typed details and its content. */
export interface Described {
  title?: string;
  details?: ItemDetails;
  data: Record<string, unknown>;
}

/**
 * How one Codex SDK ThreadItem type becomes a canonical item. exec sends whole snapshots of an item (no deltas),
 * so `stream` names the field whose growth between snapshots is emitted as `content.delta`.
 */
export interface ItemKind {
  itemType: CanonicalItemType;
  /** The growing text of the item and the stream it goes to. */
  stream?: { kind: ContentStreamKind; textOf(item: JsonObject): string | undefined };
  /**
   * The snapshot's title (the unwrapped command, the file paths, the tool, the query), its details (DESIGN §2,
   * only what the record carries) and its `data` in canonical (camelCase) names; `raw` keeps the item whole.
   * Called once per item event.
   */
  describe(item: JsonObject): Described;
  /** For todo_list: the plan it carries (each snapshot also updates the turn's plan). */
  plan?(item: JsonObject): PlanStep[];
  /** Canonical events this kind yields beyond item.started/updated/completed (for coverage). */
  extraYields?: RuntimeEventType[];
}

/** agent_message and reasoning: the snapshot's whole text (its growth also streams as deltas). */
function textItem(item: JsonObject): Described {
  const text = str(item.text);
  return text === undefined ? { details: {}, data: {} } : { details: { text }, data: { text } };
}

export const CODEX_SDK_ITEM_KINDS: Record<string, ItemKind> = {
  agent_message: {
    itemType: "assistant_message",
    stream: { kind: "assistant_text", textOf: (item) => str(item.text) },
    describe: textItem,
  },
  reasoning: {
    itemType: "reasoning",
    stream: { kind: "reasoning_text", textOf: (item) => str(item.text) },
    describe: textItem,
  },
  command_execution: {
    itemType: "command_execution",
    stream: { kind: "command_output", textOf: (item) => str(item.aggregated_output) },
    describe(item) {
      const native = str(item.command);
      const exitCode = int(item.exit_code);
      const data = defined({
        command: native,
        aggregatedOutput: str(item.aggregated_output),
        exitCode: num(item.exit_code),
        status: str(item.status),
      });
      if (native === undefined) return { data };
      // exec reports neither the working directory nor the duration: cwd and durationMs stay absent. The exit
      // code is there once the command has exited (absent or null before). The output is not repeated here: it
      // streams as command_output deltas.
      const { command, shell } = unwrapShellCommand(native);
      const details = defined({ command, shell, exitCode }) as ItemDetails;
      return { title: command, details, data };
    },
  },
  file_change: {
    itemType: "file_change",
    describe(item) {
      const native = arr(item.changes);
      const listed = dataChanges(native ?? []);
      const data = defined({ changes: listed, status: str(item.status) });
      const title = listed.length === 0 ? undefined : listed.map((change) => change.path).join(", ");
      if (native === undefined) return title === undefined ? { data } : { title, data };
      // exec's JSONL names each file and what happened to it, never the patch: no `diff`, no move target.
      const details: ItemDetails = { changes: detailChanges(native) };
      return title === undefined ? { details, data } : { title, details, data };
    },
  },
  mcp_tool_call: {
    itemType: "mcp_tool_call",
    describe(item) {
      const server = str(item.server);
      const tool = str(item.tool);
      const data = defined({
        server,
        tool,
        arguments: item.arguments,
        result: item.result,
        error: isObject(item.error) ? item.error : undefined,
        status: str(item.status),
      });
      if (server === undefined || tool === undefined) {
        const title = server ?? tool;
        return title === undefined ? { data } : { title, data };
      }
      const title = `${server}.${tool}`;
      const error = isObject(item.error) ? str(item.error.message) : str(item.error);
      const details = defined({
        server,
        tool,
        arguments: item.arguments,
        result: item.result ?? undefined,
        error,
      }) as ItemDetails;
      return { title, details, data };
    },
  },
  web_search: {
    itemType: "web_search",
    describe(item) {
      // exec reports the query only; the pages it opened (`url`) are not in its JSONL.
      const query = str(item.query);
      return query === undefined
        ? { details: {}, data: {} }
        : { title: query, details: { query }, data: { query } };
    },
  },
  todo_list: {
    itemType: "plan",
    // A to-do list has steps, not a text: `details.text` stays absent; the steps are the turn's plan
    // (turn.plan.updated) and `data.items`.
    describe: (item) => ({ details: {}, data: { items: todoItems(item) } }),
    plan: (item) =>
      todoItems(item).map((todo) => ({ step: todo.text, status: todo.completed ? "completed" : "pending" })),
    extraYields: ["turn.plan.updated"],
  },
  error: {
    itemType: "error",
    describe(item) {
      const message = str(item.message);
      if (message === undefined) return { details: {}, data: {} };
      return { title: firstLine(message), details: { message }, data: { message } };
    },
  },
};

/** The status an item snapshot reports, in canonical terms; items without a status are done when completed. */
export function itemStatus(item: JsonObject, completed: boolean): ItemStatus {
  const status = str(item.status);
  if (status === "failed") return "failed";
  if (status === "declined") return "declined";
  return completed ? "completed" : "inProgress";
}

const CHANGE_KINDS: ReadonlySet<string> = new Set<FileChangeKind>(["add", "update", "delete"]);

/** `data.changes`: each change with a path, its kind as exec wrote it. */
function dataChanges(native: unknown[]): Array<{ path: string; kind?: string }> {
  const out: Array<{ path: string; kind?: string }> = [];
  for (const change of native) {
    if (!isObject(change)) continue;
    const path = str(change.path);
    if (path === undefined) continue;
    const kind = str(change.kind);
    out.push(kind === undefined ? { path } : { path, kind });
  }
  return out;
}

/** `details.changes`: the changes with a path and a kind exec defines (add | delete | update); none guessed. */
function detailChanges(native: unknown[]): FileChange[] {
  const out: FileChange[] = [];
  for (const change of native) {
    if (!isObject(change)) continue;
    const path = str(change.path);
    const kind = str(change.kind);
    if (path !== undefined && kind !== undefined && CHANGE_KINDS.has(kind))
      out.push({ path, kind: kind as FileChangeKind });
  }
  return out;
}

function todoItems(item: JsonObject): Array<{ text: string; completed: boolean }> {
  const out: Array<{ text: string; completed: boolean }> = [];
  for (const todo of arr(item.items) ?? []) {
    if (!isObject(todo)) continue;
    const text = str(todo.text);
    if (text !== undefined) out.push({ text, completed: todo.completed === true });
  }
  return out;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? text;
}

function defined(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
