import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { isObject, type JsonObject, str } from "../../kit/guards.js";
import { malformedRecordWarning } from "../../kit/warnings.js";
import { TURN_INPUT, TURN_INTERRUPT } from "./records.js";
import type { CodexSdkThreadState } from "./thread-state.js";
import { tokenUsageOf, usageDifference } from "./usage.js";

/** One native kind: its handler and, for coverage, what it yields and why. */
export interface RecordKind {
  yields: RuntimeEventType[];
  note?: string;
  handle(mapper: CodexSdkThreadState, msg: JsonObject, raw: RuntimeEventRaw): RuntimeEvent[];
}

/** exec's retry notices ("Reconnecting... 2/5 (…)") are `error` events that do not end the turn. */
const RETRY_NOTICE = /^Reconnecting\.\.\. \d+\/\d+/;

/** The 8 ThreadEvent types of `@openai/codex-sdk` 0.163.0. */
export const CODEX_SDK_EVENT_KINDS: Record<string, RecordKind> = {
  "thread.started": {
    yields: ["session.started", "thread.started", "session.state.changed", "provider.event"],
    note:
      "The SDK runs one `codex exec` per turn and each run repeats thread.started: the first (or a new thread id) " +
      "→ thread.started (+ session.started and session.state.changed {state: ready} once: exec's start-up is " +
      "done); the same id again → provider.event (a resume, not a second thread; the thread becomes active at " +
      "its turn.started, as the state semantics have it).",
    handle(mapper, msg, raw) {
      mapper.beginRun();
      const providerThreadId = str(msg.thread_id);
      if (providerThreadId === undefined || providerThreadId.length === 0)
        return [malformedRecordWarning(mapper.builder, "thread.started", "no `thread_id`", raw)];
      const events = mapper.endTurn(
        { state: "failed", errorMessage: "the run ended without turn.completed" },
        raw,
      );
      if (providerThreadId === mapper.providerThreadId) {
        events.push(
          mapper.builder.emit(
            "provider.event",
            { name: "thread.started", summary: "exec resumed the thread for a new run" },
            mapper.contextWithRaw(raw),
          ),
        );
        return events;
      }
      const first = mapper.threadId === undefined;
      mapper.setThread(providerThreadId);
      if (first) events.push(mapper.builder.emit("session.started", {}, mapper.contextWithRaw(raw)));
      events.push(mapper.builder.emit("thread.started", { providerThreadId }, mapper.contextWithRaw(raw)));
      // No handshake in exec: its first thread.started is the session's "ready", unless a state is already set.
      if (first && mapper.states.sessionState === undefined)
        events.push(
          mapper.builder.emit("session.state.changed", { state: "ready" }, mapper.contextWithRaw(raw)),
        );
      return events;
    },
  },
  "turn.started": {
    yields: ["turn.started", "item.started", "item.completed"],
    note: "The prompt of the preceding `turn.input` host record becomes the turn's user_message item.",
    handle(mapper, _msg, raw) {
      const events = mapper.endTurn(
        { state: "failed", errorMessage: "a new turn started before this one ended" },
        raw,
      );
      events.push(...mapper.startTurn(raw));
      return events;
    },
  },
  "turn.completed": {
    yields: ["turn.completed", "thread.token-usage.updated"],
    note:
      "usage → TokenUsage (cached and cache-write input tokens included). exec reports the thread's running " +
      "total, so it is also thread.token-usage.updated.total (`last` = the difference to the previous total).",
    handle(mapper, msg, raw) {
      const usage = tokenUsageOf(msg.usage);
      const events = mapper.endTurn(
        usage === undefined ? { state: "completed" } : { state: "completed", usage },
        raw,
      );
      if (events.length === 0)
        events.push(malformedRecordWarning(mapper.builder, "turn.completed", "no turn is open", raw));
      if (usage !== undefined) {
        const last = usageDifference(usage, mapper.lastUsage);
        mapper.lastUsage = usage;
        events.push(
          mapper.builder.emit(
            "thread.token-usage.updated",
            { usage: last === undefined ? { total: usage } : { total: usage, last } },
            mapper.contextWithRaw(raw),
          ),
        );
      }
      return events;
    },
  },
  "turn.failed": {
    yields: ["runtime.error", "turn.completed"],
    note: "runtime.error (provider_error) + turn.completed {state: failed}; open items of the turn end as failed.",
    handle(mapper, msg, raw) {
      const error = isObject(msg.error) ? msg.error : undefined;
      const message = str(error?.message) ?? "turn failed";
      const events: RuntimeEvent[] = [
        mapper.builder.emit(
          "runtime.error",
          { message, class: "provider_error", detail: error ?? msg },
          mapper.contextWithRaw(raw),
        ),
      ];
      events.push(...mapper.endTurn({ state: "failed", errorMessage: message }, raw));
      return events;
    },
  },
  "item.started": {
    yields: ["item.started", "content.delta", "turn.plan.updated"],
    note: "Item types per the item table; non-empty text/output of the snapshot → content.delta.",
    handle: (mapper, msg, raw) => mapper.itemSnapshot("started", msg, raw),
  },
  "item.updated": {
    yields: ["item.updated", "content.delta", "turn.plan.updated"],
    note: "The growth of the item's text/output since the previous snapshot → content.delta.",
    handle: (mapper, msg, raw) => mapper.itemSnapshot("updated", msg, raw),
  },
  "item.completed": {
    yields: ["item.completed", "item.started", "content.delta", "turn.plan.updated"],
    note:
      "exec completes some items (agent_message, reasoning) without item.started: item.started is synthesized, " +
      "then the remaining text as content.delta, then item.completed.",
    handle: (mapper, msg, raw) => mapper.itemSnapshot("completed", msg, raw),
  },
  error: {
    yields: ["runtime.error"],
    note: "runtime.error (provider_error); exec's retry notices carry detail.willRetry = true.",
    handle(mapper, msg, raw) {
      const message = str(msg.message) ?? "error";
      return [
        mapper.builder.emit(
          "runtime.error",
          { message, class: "provider_error", detail: { willRetry: RETRY_NOTICE.test(message) } },
          mapper.contextWithRaw(raw),
        ),
      ];
    },
  },
};

/** The driver's own `out` records (see records.ts). */
export const HOST_RECORD_KINDS: Record<string, RecordKind> = {
  [TURN_INPUT]: {
    yields: [],
    note: "Correlation only: the prompt is kept and becomes the user_message item at the next turn.started.",
    handle(mapper, msg, raw) {
      mapper.rememberInput(msg.input, raw);
      return [];
    },
  },
  [TURN_INTERRUPT]: {
    yields: ["item.completed", "turn.completed"],
    note: "The host aborted the run: open items end as failed, turn.completed {state: interrupted}.",
    handle(mapper, msg, raw) {
      return mapper.endTurn({ state: "interrupted", stopReason: str(msg.reason) ?? "interrupted" }, raw);
    },
  },
};
