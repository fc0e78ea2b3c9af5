import type { CanonicalItemType, ContentStreamKind } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { type JsonObject, str } from "../../kit/guards.js";
import type { EventMsgCore } from "./core.js";
import { mapEventMsg } from "./eventmsg-table.js";
import { callIdOf, pick, pickId, pickStr } from "./fields.js";
import { callPatch, outputOf } from "./rollout-calls.js";

/** One rollout line: `{timestamp, type, payload}`. */
export interface LineContext {
  core: EventMsgCore;
  payload: JsonObject;
  raw: RuntimeEventRaw;
  type: string;
}

export interface RolloutLineHandler {
  yields: RuntimeEventType[];
  note?: string;
  handle(ctx: LineContext): RuntimeEvent[];
}

/**
 * Rollout line types (`RolloutItem`) → handlers. `event_msg` lines go through the EventMsg table; the others feed
 * state. `response_item` lines mostly repeat what `event_msg` lines say, so they become items only for tool calls
 * (older rollouts write no event for those) and never twice: a call an event already completed is a `provider.event`.
 */
export const ROLLOUT_LINE_TABLE: Record<string, RolloutLineHandler> = {
  session_meta: {
    yields: ["session.started", "thread.started", "session.configured"],
    note: "session.started once; thread.started per thread id; config = cwd, originator, cli version, source, git",
    handle: ({ core, payload, raw }) => {
      const events: RuntimeEvent[] = [];
      const cliVersion = pickStr(payload, "cli_version");
      if (!core.sessionStarted) {
        core.sessionStarted = true;
        const origin = [pickStr(payload, "originator"), cliVersion].filter(Boolean).join(" ");
        events.push(
          core.emit("session.started", origin.length > 0 ? { message: `codex ${origin}` } : {}, raw),
        );
      }
      events.push(...core.ensureThread(pickId(payload, "id", "session_id"), raw));
      const config: JsonObject = {};
      for (const [from, to] of CONFIG_FIELDS) if (payload[from] !== undefined) config[to] = payload[from];
      events.push(core.emit("session.configured", { config }, raw));
      return events;
    },
  },
  turn_context: {
    yields: ["session.configured"],
    note: "model, cwd, approval and sandbox policy, effort; a repeat without change is a provider.event",
    handle: ({ core, payload, raw }) => {
      const config: JsonObject = {};
      for (const [from, to] of TURN_CONTEXT_FIELDS)
        if (payload[from] !== undefined) config[to] = payload[from];
      const model = str(config.model);
      if (model !== undefined) core.model = model;
      const effort = str(config.effort);
      if (effort !== undefined) core.effort = effort;
      const signature = JSON.stringify(config);
      if (signature === core.lastTurnContext) return [core.note("turn_context", raw, "unchanged")];
      core.lastTurnContext = signature;
      return [core.emit("session.configured", { config }, raw)];
    },
  },
  event_msg: {
    yields: [],
    note: "the payload is an EventMsg: see the event_msg rows",
    handle: ({ core, payload, raw }) => mapEventMsg(core, payload, raw),
  },
  response_item: {
    yields: ["item.started", "item.completed", "content.delta", "provider.event"],
    note: "tool calls and their outputs → items with details from the call's arguments (deduplicated with event_msg items); messages, reasoning → provider.event",
    handle: mapResponseItem,
  },
  compacted: {
    yields: ["thread.state.changed"],
    handle: ({ core, payload, raw }) => [
      core.emit(
        "thread.state.changed",
        { state: "compacted", detail: { message: pick(payload, "message") } },
        raw,
      ),
    ],
  },
  world_state: {
    yields: ["provider.event"],
    note: "the environment snapshot sent to the model (0.171.0)",
    handle: ({ core, raw, type }) => [core.note(type, raw, "environment snapshot")],
  },
  token_usage_record: {
    yields: ["provider.event"],
    note: "per-response usage (0.171.0); the token_count event carries the thread's usage",
    handle: ({ core, raw, type }) => [core.note(type, raw, "per-response usage")],
  },
};

const CONFIG_FIELDS: [string, string][] = [
  ["cwd", "cwd"],
  ["originator", "originator"],
  ["cli_version", "cliVersion"],
  ["source", "source"],
  ["model_provider", "modelProvider"],
  ["git", "git"],
  ["timestamp", "startedAt"],
];

const TURN_CONTEXT_FIELDS: [string, string][] = [
  ["model", "model"],
  ["cwd", "cwd"],
  ["approval_policy", "approvalPolicy"],
  ["sandbox_policy", "sandboxPolicy"],
  ["effort", "effort"],
  ["summary", "summary"],
];

const CALL_TYPES = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output", "local_shell_call_output"]);

export const RESPONSE_ITEM_TYPES = [
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
] as const;

function mapResponseItem({ core, payload, raw }: LineContext): RuntimeEvent[] {
  const type = str(payload.type) ?? "(none)";
  const callId = callIdOf(payload);
  if (CALL_TYPES.has(type) && callId !== undefined) {
    const name = pickStr(payload, "name") ?? (type === "local_shell_call" ? "local_shell" : "tool");
    const itemType = toolItemType(name);
    const key = core.itemKey(callId);
    if (core.isCompleted(key))
      return [core.note(`response_item:${type}`, raw, "call of an item already completed")];
    const data = { name, arguments: pick(payload, "arguments", "input", "action") };
    const fields = { title: name, details: callPatch(itemType, name, payload), data };
    return core.startItem(key, itemType, raw, fields, callId);
  }
  if (OUTPUT_TYPES.has(type) && callId !== undefined) {
    const key = core.itemKey(callId);
    const open = core.items.get(key);
    if (open === undefined)
      return [core.note(`response_item:${type}`, raw, "output of a call already completed")];
    const output = outputOf(payload.output, open.state.itemType);
    const stream = outputStream(open.state.itemType);
    const status = output.failed ? "failed" : "completed";
    return core.completeItem(
      key,
      open.state.itemType,
      raw,
      { status, details: output.details, data: { output: payload.output } },
      stream === undefined ? undefined : { streamKind: stream, text: output.text },
    );
  }
  const role = str(payload.role);
  return [core.note(`response_item:${type}`, raw, role)];
}

/** A tool's canonical item type from its name as the model called it. */
export function toolItemType(name: string): CanonicalItemType {
  if (
    ["shell", "exec_command", "local_shell", "shell_command", "container.exec", "write_stdin"].includes(name)
  ) {
    return "command_execution";
  }
  if (name === "apply_patch") return "file_change";
  if (name === "view_image") return "image_view";
  if (name === "web_search") return "web_search";
  if (["spawn_agent", "send_input", "wait", "close_agent", "resume_agent"].includes(name)) {
    return "collab_agent_tool_call";
  }
  if (name.startsWith("mcp__") || name.includes("/")) return "mcp_tool_call";
  return "dynamic_tool_call";
}

function outputStream(itemType: CanonicalItemType): ContentStreamKind | undefined {
  if (itemType === "command_execution") return "command_output";
  if (itemType === "file_change") return "file_change_output";
  return undefined;
}
