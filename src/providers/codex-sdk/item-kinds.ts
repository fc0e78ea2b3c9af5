import type { CanonicalItemType, ContentStreamKind, ItemStatus } from "../../contracts/enums.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { PlanStep } from "../../contracts/payloads.js";
import { arr, isObject, type JsonObject, num, str } from "../../kit/guards.js";

/**
 * How one Codex SDK ThreadItem type becomes a canonical item. exec sends whole snapshots of an item (no deltas),
 * so `stream` names the field whose growth between snapshots is emitted as `content.delta`.
 */
export interface ItemKind {
  itemType: CanonicalItemType;
  /** The growing text of the item and the stream it goes to. */
  stream?: { kind: ContentStreamKind; textOf(item: JsonObject): string | undefined };
  /** A one-line label (the command line, the tool, the query). */
  title?(item: JsonObject): string | undefined;
  /** The item's content in canonical (camelCase) names; `raw` keeps the native item whole. */
  data(item: JsonObject): Record<string, unknown>;
  /** For todo_list: the plan it carries (each snapshot also updates the turn's plan). */
  plan?(item: JsonObject): PlanStep[];
  /** Canonical events this kind yields beyond item.started/updated/completed (for coverage). */
  extraYields?: RuntimeEventType[];
}

export const CODEX_SDK_ITEM_KINDS: Record<string, ItemKind> = {
  agent_message: {
    itemType: "assistant_message",
    stream: { kind: "assistant_text", textOf: (item) => str(item.text) },
    data: (item) => defined({ text: str(item.text) }),
  },
  reasoning: {
    itemType: "reasoning",
    stream: { kind: "reasoning_text", textOf: (item) => str(item.text) },
    data: (item) => defined({ text: str(item.text) }),
  },
  command_execution: {
    itemType: "command_execution",
    stream: { kind: "command_output", textOf: (item) => str(item.aggregated_output) },
    title: (item) => str(item.command),
    data: (item) =>
      defined({
        command: str(item.command),
        aggregatedOutput: str(item.aggregated_output),
        exitCode: num(item.exit_code),
        status: str(item.status),
      }),
  },
  file_change: {
    itemType: "file_change",
    title: (item) => fileChangeTitle(item),
    data: (item) => defined({ changes: fileChanges(item), status: str(item.status) }),
  },
  mcp_tool_call: {
    itemType: "mcp_tool_call",
    title: (item) => {
      const server = str(item.server);
      const tool = str(item.tool);
      return tool === undefined ? server : server === undefined ? tool : `${server}.${tool}`;
    },
    data: (item) =>
      defined({
        server: str(item.server),
        tool: str(item.tool),
        arguments: item.arguments,
        result: item.result,
        error: isObject(item.error) ? item.error : undefined,
        status: str(item.status),
      }),
  },
  web_search: {
    itemType: "web_search",
    title: (item) => str(item.query),
    data: (item) => defined({ query: str(item.query) }),
  },
  todo_list: {
    itemType: "plan",
    data: (item) => ({ items: todoItems(item) }),
    plan: (item) =>
      todoItems(item).map((todo) => ({ step: todo.text, status: todo.completed ? "completed" : "pending" })),
    extraYields: ["turn.plan.updated"],
  },
  error: {
    itemType: "error",
    title: (item) => firstLine(str(item.message)),
    data: (item) => defined({ message: str(item.message) }),
  },
};

/** The status an item snapshot reports, in canonical terms; items without a status are done when completed. */
export function itemStatus(item: JsonObject, completed: boolean): ItemStatus {
  const status = str(item.status);
  if (status === "failed") return "failed";
  if (status === "declined") return "declined";
  return completed ? "completed" : "inProgress";
}

function fileChanges(item: JsonObject): Array<{ path: string; kind: string }> {
  const out: Array<{ path: string; kind: string }> = [];
  for (const change of arr(item.changes) ?? []) {
    if (!isObject(change)) continue;
    const path = str(change.path);
    if (path !== undefined) out.push({ path, kind: str(change.kind) ?? "update" });
  }
  return out;
}

function fileChangeTitle(item: JsonObject): string | undefined {
  const changes = fileChanges(item);
  if (changes.length === 0) return undefined;
  return changes.map((change) => `${change.kind} ${change.path}`).join(", ");
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

function firstLine(text: string | undefined): string | undefined {
  return text?.split("\n", 1)[0];
}

function defined(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
