import type { RuntimeEvent } from "../../../contracts/events.js";
import { asObject, isObject, type JsonObject } from "../../../kit/guards.js";
import type { EventMsgCore } from "../core.js";
import { collabPatch } from "../details.js";
import { callIdOf, pick, pickId, pickStr, withoutType } from "../fields.js";
import type { EventMsgHandler, EventMsgTable, MsgContext } from "./table.js";

/**
 * Multi-agent (collab) tool calls: each begin/end pair is a `collab_agent_tool_call` item; the subagents they
 * spawn are tasks (`task.started` at spawn end, `task.completed` when a wait sees them finish or close ends them),
 * linked to the spawning item by `parentItemId`.
 */
export const collabHandlers: EventMsgTable = {
  collab_agent_spawn_begin: begin("spawn_agent"),
  collab_agent_spawn_end: end("spawn_agent", "task.started for the new agent thread", spawnedTask),
  collab_agent_interaction_begin: begin("send_input"),
  collab_agent_interaction_end: end("send_input"),
  collab_waiting_begin: begin("wait"),
  collab_waiting_end: end("wait", "task.completed for agents whose status is final", finishedTasks),
  collab_close_begin: begin("close_agent"),
  collab_close_end: end("close_agent", "task.completed (stopped) for the closed agent", closedTask),
  collab_resume_begin: begin("resume_agent"),
  collab_resume_end: end("resume_agent"),
};

type Follow = (ctx: MsgContext, parentItemId: string) => RuntimeEvent[];

function begin(tool: string): EventMsgHandler {
  return {
    yields: ["item.started"],
    note: `collab_agent_tool_call titled ${tool}`,
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? tool;
      const prompt = pickStr(p, "prompt");
      const fields = {
        title: tool,
        ...(prompt ? { detail: prompt } : {}),
        details: collabPatch(p),
        data: withoutType(p),
      };
      return core.startItem(core.itemKey(callId), "collab_agent_tool_call", raw, fields, callId);
    },
  };
}

function end(tool: string, note?: string, follow?: Follow): EventMsgHandler {
  return {
    yields:
      follow === undefined
        ? ["item.completed"]
        : ["item.completed", note?.startsWith("task.started") ? "task.started" : "task.completed"],
    note: note ?? `completes the ${tool} item`,
    handle: (ctx) => {
      const { core, p, raw } = ctx;
      const callId = callIdOf(p) ?? tool;
      const key = core.itemKey(callId);
      const failed = statusName(pick(p, "status")) === "errored";
      const events = core.completeItem(
        key,
        "collab_agent_tool_call",
        raw,
        {
          title: tool,
          status: failed ? "failed" : "completed",
          details: collabPatch(p),
          data: withoutType(p),
        },
        undefined,
        callId,
      );
      if (follow !== undefined) events.push(...follow(ctx, core.itemIdOf(key)));
      return events;
    },
  };
}

function spawnedTask({ core, p, raw }: MsgContext, parentItemId: string): RuntimeEvent[] {
  const agent = pickId(p, "new_thread_id", "newThreadId", "new_process_id");
  if (agent === undefined) return [];
  const { entry, isNew } = core.tasks.open(agent, undefined);
  if (!isNew) return [];
  const prompt = pickStr(p, "prompt");
  return [
    core.emit(
      "task.started",
      { taskId: entry.id, taskType: "subagent", ...(prompt ? { description: prompt } : {}) },
      raw,
      { parentItemId, providerRefs: { providerThreadId: agent } },
    ),
  ];
}

function finishedTasks({ core, p, raw }: MsgContext, parentItemId: string): RuntimeEvent[] {
  const statuses = asObject(pick(p, "statuses")) ?? {};
  const events: RuntimeEvent[] = [];
  for (const [agent, status] of Object.entries(statuses)) {
    const name = statusName(status);
    if (name === "completed" || name === "errored" || name === "shutdown" || name === "not_found") {
      events.push(
        ...completeTask(
          core,
          agent,
          name === "completed" ? "completed" : name === "errored" ? "failed" : "stopped",
          status,
          raw,
          parentItemId,
        ),
      );
    }
  }
  return events;
}

function closedTask({ core, p, raw }: MsgContext, parentItemId: string): RuntimeEvent[] {
  const agent = pickId(p, "receiver_thread_id", "receiverThreadId");
  if (agent === undefined) return [];
  return completeTask(core, agent, "stopped", pick(p, "status"), raw, parentItemId);
}

function completeTask(
  core: EventMsgCore,
  agent: string,
  status: "completed" | "failed" | "stopped",
  nativeStatus: unknown,
  raw: MsgContext["raw"],
  parentItemId: string,
): RuntimeEvent[] {
  const open = core.tasks.close(agent);
  if (open === undefined) return [];
  const summary = summaryOf(nativeStatus);
  return [
    core.emit(
      "task.completed",
      { taskId: open.id, status, ...(summary === undefined ? {} : { summary }) },
      raw,
      { parentItemId, providerRefs: { providerThreadId: agent } },
    ),
  ];
}

/** AgentStatus is a string (`running`) or a one-key object (`{completed: "text"}`). */
function statusName(status: unknown): string | undefined {
  if (typeof status === "string") return status;
  if (isObject(status)) return Object.keys(status)[0];
  return undefined;
}

function summaryOf(status: unknown): string | undefined {
  if (!isObject(status)) return undefined;
  const value = (status as JsonObject)[Object.keys(status)[0] ?? ""];
  return typeof value === "string" ? value : undefined;
}
