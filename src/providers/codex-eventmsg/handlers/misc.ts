import type { RuntimeEvent } from "../../../contracts/events.js";
import { isObject } from "../../../kit/guards.js";
import { pick, pickId, pickObj, pickStr, withoutType } from "../fields.js";
import type { EventMsgHandler, EventMsgTable } from "./table.js";

/** Realtime, MCP startup, hooks, review mode, undo, notices, and replies to utility requests. */
export const miscHandlers: EventMsgTable = {
  realtime_conversation_started: {
    yields: ["thread.realtime.started"],
    handle: ({ core, p, raw }) => {
      const id = pickStr(p, "session_id", "sessionId", "realtime_session_id");
      return [core.emit("thread.realtime.started", id === undefined ? {} : { realtimeSessionId: id }, raw)];
    },
  },
  realtime_conversation_realtime: {
    yields: ["thread.realtime.item-added", "thread.realtime.audio.delta"],
    note: "audio payloads → audio.delta, anything else → item-added",
    handle: ({ core, p, raw }) => {
      const payload = pick(p, "payload", "event") ?? withoutType(p);
      const audio = isObject(payload) ? (payload.AudioOut ?? payload.audio_out ?? payload.audio) : undefined;
      if (audio !== undefined) return [core.emit("thread.realtime.audio.delta", { audio }, raw)];
      return [core.emit("thread.realtime.item-added", { item: payload }, raw)];
    },
  },
  realtime_conversation_closed: {
    yields: ["thread.realtime.closed"],
    handle: ({ core, p, raw }) => {
      const reason = pickStr(p, "reason");
      return [core.emit("thread.realtime.closed", reason === undefined ? {} : { reason }, raw)];
    },
  },
  mcp_startup_update: {
    yields: ["mcp.status.updated"],
    handle: ({ core, p, raw }) => [core.emit("mcp.status.updated", { status: withoutType(p) }, raw)],
  },
  mcp_startup_complete: {
    yields: ["mcp.status.updated"],
    handle: ({ core, p, raw }) => [core.emit("mcp.status.updated", { status: withoutType(p) }, raw)],
  },
  hook_started: {
    yields: ["hook.started"],
    handle: ({ core, p, raw }) => {
      const run = pickObj(p, "run") ?? p;
      return [
        core.emit(
          "hook.started",
          {
            hookId: pickId(run, "id") ?? "hook",
            hookName: pickStr(run, "handler_type", "handlerType", "source_path", "name") ?? "hook",
            hookEvent: pickStr(run, "event_name", "eventName") ?? "unknown",
          },
          raw,
        ),
      ];
    },
  },
  hook_completed: {
    yields: ["hook.completed"],
    note: "outcome: completed → success, stopped → cancelled, failed/blocked → error",
    handle: ({ core, p, raw }) => {
      const run = pickObj(p, "run") ?? p;
      const status = pickStr(run, "status");
      const outcome = status === "completed" ? "success" : status === "stopped" ? "cancelled" : "error";
      return [core.emit("hook.completed", { hookId: pickId(run, "id") ?? "hook", outcome }, raw)];
    },
  },
  entered_review_mode: reviewItem("review_entered", (p) => pickStr(p, "user_facing_hint", "userFacingHint")),
  exited_review_mode: reviewItem("review_exited", (p) =>
    pickStr(pickObj(p, "review_output", "reviewOutput") ?? {}, "overall_explanation"),
  ),
  undo_started: {
    yields: ["task.started"],
    note: "an undo is a task (taskType undo)",
    handle: ({ core, p, raw }) => {
      const { entry } = core.tasks.open(`undo:${core.turn?.key ?? "-"}`, undefined);
      const message = pickStr(p, "message");
      return [
        core.emit(
          "task.started",
          { taskId: entry.id, taskType: "undo", ...(message ? { description: message } : {}) },
          raw,
        ),
      ];
    },
  },
  undo_completed: {
    yields: ["task.completed"],
    handle: ({ core, p, raw }) => {
      const key = `undo:${core.turn?.key ?? "-"}`;
      const events: RuntimeEvent[] = [];
      let open = core.tasks.close(key);
      if (open === undefined) {
        const { entry } = core.tasks.open(key, undefined);
        events.push(core.emit("task.started", { taskId: entry.id, taskType: "undo" }, raw));
        open = core.tasks.close(key);
      }
      const message = pickStr(p, "message");
      const status = p.success === false ? "failed" : "completed";
      if (open !== undefined) {
        events.push(
          core.emit(
            "task.completed",
            { taskId: open.id, status, ...(message ? { summary: message } : {}) },
            raw,
          ),
        );
      }
      return events;
    },
  },
  deprecation_notice: {
    yields: ["deprecation.notice"],
    handle: ({ core, p, raw }) => {
      const details = pickStr(p, "details");
      return [
        core.emit(
          "deprecation.notice",
          { summary: pickStr(p, "summary") ?? "", ...(details === undefined ? {} : { details }) },
          raw,
        ),
      ];
    },
  },
  background_event: noteOf("informational message from the agent", "message"),
  raw_response_item: noteOf("a raw model response item (items come from the typed events)"),
  get_history_entry_response: noteOf("reply to a history request"),
  mcp_list_tools_response: noteOf("reply to list MCP tools"),
  list_custom_prompts_response: noteOf("reply to list custom prompts"),
  list_skills_response: noteOf("reply to list skills"),
  list_remote_skills_response: noteOf("reply to list remote skills"),
  remote_skill_downloaded: noteOf("a remote skill was downloaded", "name"),
  skills_update_available: noteOf("skills changed on disk"),
};

function reviewItem(
  itemType: "review_entered" | "review_exited",
  detailOf: (p: Record<string, unknown>) => string | undefined,
): EventMsgHandler {
  return {
    yields: ["item.started", "item.completed"],
    note: `${itemType} item, started and completed at once`,
    handle: ({ core, p, raw }) => {
      const events: RuntimeEvent[] = [];
      const turn = core.ensureTurn(raw, events);
      const detail = detailOf(p);
      const fields = { status: "completed" as const, ...(detail ? { detail } : {}), data: withoutType(p) };
      events.push(...core.completeItem(core.freshKey(turn, itemType), itemType, raw, fields));
      return events;
    },
  };
}

/** A known record no canonical family fits: `provider.event`, summary from a field when it has one. */
function noteOf(note: string, summaryField?: string): EventMsgHandler {
  return {
    yields: ["provider.event"],
    note,
    handle: ({ core, p, raw, type }) => [
      core.note(type, raw, summaryField === undefined ? undefined : pickStr(p, summaryField)),
    ],
  };
}
