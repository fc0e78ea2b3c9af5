import type { PlanStepStatus } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { EventBuilder } from "../../kit/event-builder.js";
import { arr, isObject, type JsonObject, num, own, str } from "../../kit/guards.js";
import { providerEvent } from "../../kit/warnings.js";
import type { AcpSessionState } from "./session-state.js";
import { mapSessionMessage, mapSubagentUpdate } from "./subagents.js";
import { mapToolCall, mapToolCallUpdate } from "./tool-calls.js";

export interface UpdateInput {
  state: AcpSessionState;
  b: EventBuilder;
  update: JsonObject;
  raw: RuntimeEventRaw;
}

export interface UpdateHandler {
  yields: RuntimeEventType[];
  note?: string;
  map(input: UpdateInput): RuntimeEvent[];
}

/** The text of a content block; non-text blocks (images, resources) carry none. */
function blockText(block: unknown): string {
  return isObject(block) ? (str(block.text) ?? "") : "";
}

function chunk(kind: "assistant_message" | "reasoning") {
  return ({ state, b, update, raw }: UpdateInput): RuntimeEvent[] => {
    if (kind === "assistant_message") {
      const aside = asideOfAnswer(state, b, update, raw);
      if (aside !== undefined) return aside;
    }
    const { itemId, started } = state.textItem(kind, str(update.messageId), b, raw);
    const streamKind = kind === "assistant_message" ? "assistant_text" : "reasoning_text";
    // `started` is a fresh array: the delta is appended to it rather than both copied into another.
    started.push(
      b.emit(
        "content.delta",
        { streamKind, delta: blockText(update.content) },
        state.itemContext(raw, itemId),
      ),
    );
    return started;
  };
}

/**
 * An `agent_message_chunk` that is not the assistant's answer, or undefined:
 * - claude-agent-acp's informational notices (`_meta.claudeCode.kind: "informational"`, sent so to clients
 *   without `session.notices`): by level like a `notice` update — `warning` → runtime.warning (a user should see
 *   it), other levels (`info`, `notice`, `suggestion`) → provider.event (status lines, not drift);
 * - codex-acp's text after a `systemError` thread status in the same turn (its rendering of the model error,
 *   without messageId): kept for the turn's runtime.error, here a provider.event.
 */
function asideOfAnswer(
  state: AcpSessionState,
  b: EventBuilder,
  update: JsonObject,
  raw: RuntimeEventRaw,
): RuntimeEvent[] | undefined {
  const text = blockText(update.content);
  const claudeCode =
    isObject(update._meta) && isObject(update._meta.claudeCode) ? update._meta.claudeCode : {};
  if (claudeCode.kind === "informational") {
    const level = str(claudeCode.level) ?? "info";
    const events = state.closeText(b, raw);
    if (level === "warning") {
      events.push(
        b.emit(
          "runtime.warning",
          { message: text, detail: { reason: "agent-notice", level } },
          state.context(raw),
        ),
      );
    } else {
      events.push(providerEvent(b, `informational:${level}`, raw, text, state.context(raw)));
    }
    return events;
  }
  const turnId = state.currentTurnId;
  const systemError = turnId === undefined ? undefined : state.systemErrors.get(turnId);
  if (systemError === undefined || str(update.messageId) !== undefined) return undefined;
  systemError.text += text;
  return [providerEvent(b, "system-error-text", raw, text, state.context(raw))];
}

/** `_meta.codex.threadStatus` of a codex-acp `session_info_update`. */
function codexThreadStatus(update: JsonObject): JsonObject | undefined {
  const meta = isObject(update._meta) ? update._meta : undefined;
  const codex = isObject(meta?.codex) ? meta.codex : undefined;
  return isObject(codex?.threadStatus) ? codex.threadStatus : undefined;
}

const PLAN_STATUS: Record<string, PlanStepStatus> = {
  pending: "pending",
  in_progress: "inProgress",
  completed: "completed",
};

/** ACP plan entries (`{content, priority, status}`) as canonical steps. */
export function planSteps(entries: unknown): { step: string; status: PlanStepStatus }[] {
  return (arr(entries) ?? []).filter(isObject).map((entry) => ({
    step: str(entry.content) ?? str(entry.title) ?? str(entry.text) ?? "",
    status: own(PLAN_STATUS, str(entry.status)) ?? "pending",
  }));
}

function configured(field: string) {
  return ({ state, b, update, raw }: UpdateInput): RuntimeEvent[] => [
    b.emit("session.configured", { config: { [field]: update[field] } }, state.context(raw)),
  ];
}

function compactionItem(
  state: AcpSessionState,
  b: EventBuilder,
  compactionId: string,
  raw: RuntimeEventRaw,
): { itemId: string; events: RuntimeEvent[] } {
  const { entry, isNew } = state.compactions.open(`compaction:${compactionId}`, undefined);
  const events: RuntimeEvent[] = isNew
    ? [
        b.emit(
          "item.started",
          { itemType: "context_compaction", status: "inProgress" },
          state.itemContext(raw, entry.id),
        ),
      ]
    : [];
  return { itemId: entry.id, events };
}

/** The 14 v1 `session/update` kinds, and the unstable ones, by `sessionUpdate`. */
export const SESSION_UPDATE_HANDLERS: Record<string, UpdateHandler> = {
  user_message_chunk: {
    yields: ["item.started", "item.updated"],
    note: "the user's words (replayed by session/load) as a user_message item",
    map: ({ state, b, update, raw }) => {
      const { itemId, started } = state.textItem("user_message", str(update.messageId), b, raw);
      return [
        ...started,
        b.emit(
          "item.updated",
          { itemType: "user_message", detail: blockText(update.content), data: { content: update.content } },
          state.itemContext(raw, itemId),
        ),
      ];
    },
  },
  agent_message_chunk: { yields: ["item.started", "content.delta"], map: chunk("assistant_message") },
  agent_thought_chunk: { yields: ["item.started", "content.delta"], map: chunk("reasoning") },
  tool_call: {
    yields: ["item.started", "item.updated", "item.completed"],
    note: "de-duplicated starts: a repeated toolCallId updates its item; details by ToolKind and content type",
    map: ({ state, b, update, raw }) => mapToolCall(state, b, update, raw),
  },
  tool_call_update: {
    yields: ["item.updated", "item.completed"],
    note: "keeps the item type of its start; completed/failed end the item with the output in data.output",
    map: ({ state, b, update, raw }) => mapToolCallUpdate(state, b, update, raw),
  },
  plan: {
    yields: ["turn.plan.updated"],
    map: ({ state, b, update, raw }) => [
      b.emit("turn.plan.updated", { plan: planSteps(update.entries) }, state.context(raw)),
    ],
  },
  available_commands_update: { yields: ["session.configured"], map: configured("availableCommands") },
  current_mode_update: { yields: ["session.configured"], map: configured("currentModeId") },
  config_option_update: { yields: ["session.configured"], map: configured("configOptions") },
  session_info_update: {
    yields: ["thread.metadata.updated", "provider.event"],
    note:
      "title/updatedAt → thread.metadata.updated; codex-acp's _meta.codex.threadStatus alone → provider.event, " +
      "systemError marks the turn failed (runtime.error at its end)",
    map: ({ state, b, update, raw }) => {
      const title = str(update.title);
      const updatedAt = str(update.updatedAt);
      const status = codexThreadStatus(update);
      const events: RuntimeEvent[] = [];
      const turnId = state.currentTurnId;
      if (status?.type === "systemError" && turnId !== undefined && !state.systemErrors.has(turnId)) {
        state.systemErrors.set(turnId, { text: "" });
      }
      if (title !== undefined || updatedAt !== undefined || status === undefined) {
        events.push(
          b.emit(
            "thread.metadata.updated",
            {
              ...(title === undefined ? {} : { name: title }),
              ...(updatedAt === undefined ? {} : { metadata: { updatedAt } }),
            },
            state.context(raw),
          ),
        );
      }
      if (status !== undefined) {
        const flags = (arr(status.activeFlags) ?? []).filter((flag) => typeof flag === "string");
        const summary = `thread status ${str(status.type) ?? "?"}${flags.length > 0 ? ` [${flags.join(", ")}]` : ""}`;
        events.push(providerEvent(b, "codex.threadStatus", raw, summary, state.context(raw)));
      }
      return events;
    },
  },
  usage_update: {
    yields: ["thread.token-usage.updated"],
    note: "used → total.totalTokens, size → modelContextWindow (cost stays in raw)",
    map: ({ state, b, update, raw }) => {
      const used = num(update.used);
      const size = num(update.size);
      return [
        b.emit(
          "thread.token-usage.updated",
          {
            usage: {
              total: used === undefined ? {} : { totalTokens: used },
              ...(size === undefined ? {} : { modelContextWindow: size }),
            },
          },
          state.context(raw),
        ),
      ];
    },
  },
  notice: {
    yields: ["runtime.error", "runtime.warning", "provider.event"],
    note: "severity error → runtime.error, warning → runtime.warning, info → provider.event",
    map: ({ state, b, update, raw }) => {
      const title = str(update.title) ?? "notice";
      const severity = str(update.severity);
      if (severity === "error") {
        return [b.emit("runtime.error", { message: title, class: "provider_error" }, state.context(raw))];
      }
      if (severity === "warning") {
        return [
          b.emit(
            "runtime.warning",
            { message: title, detail: { reason: "agent-notice" } },
            state.context(raw),
          ),
        ];
      }
      return [providerEvent(b, "notice", raw, title, state.context(raw))];
    },
  },
  compaction_update: {
    yields: ["item.started", "item.completed", "thread.state.changed"],
    note: "a context_compaction item keyed by compactionId; completed also marks the thread compacted",
    map: ({ state, b, update, raw }) => {
      const compactionId = str(update.compactionId) ?? "";
      const { itemId, events } = compactionItem(state, b, compactionId, raw);
      const status = str(update.status);
      if (status === "in_progress" || status === undefined) {
        if (events.length === 0) {
          events.push(
            b.emit(
              "item.updated",
              { itemType: "context_compaction", status: "inProgress" },
              state.itemContext(raw, itemId),
            ),
          );
        }
        return events;
      }
      state.compactions.close(`compaction:${compactionId}`);
      const error = str(update.error);
      events.push(
        b.emit(
          "item.completed",
          {
            itemType: "context_compaction",
            status: status === "completed" ? "completed" : "failed",
            ...(error === undefined ? {} : { detail: error }),
            ...(update.summary == null ? {} : { data: { summary: update.summary } }),
          },
          state.itemContext(raw, itemId),
        ),
      );
      if (status === "completed") {
        events.push(b.emit("thread.state.changed", { state: "compacted" }, state.context(raw)));
      }
      return events;
    },
  },
  compaction_summary_chunk: {
    yields: ["item.started", "item.updated"],
    map: ({ state, b, update, raw }) => {
      const { itemId, events } = compactionItem(state, b, str(update.compactionId) ?? "", raw);
      events.push(
        b.emit(
          "item.updated",
          { itemType: "context_compaction", detail: blockText(update.content) },
          state.itemContext(raw, itemId),
        ),
      );
      return events;
    },
  },
  ...unstableUpdateHandlers(),
};

/** Kinds of the unstable v1 schema: handled so an agent built on it degrades to meaningful events. */
function unstableUpdateHandlers(): Record<string, UpdateHandler> {
  return {
    plan_update: {
      yields: ["turn.plan.updated"],
      note: "unstable: items → steps; file/markdown plans → explanation",
      map: ({ state, b, update, raw }) => {
        const plan = isObject(update.plan) ? update.plan : {};
        const markdown = str(plan.markdown) ?? str(plan.content) ?? str(plan.path) ?? null;
        return [
          b.emit(
            "turn.plan.updated",
            { plan: planSteps(plan.items ?? plan.entries), explanation: markdown },
            state.context(raw),
          ),
        ];
      },
    },
    plan_removed: {
      yields: ["turn.plan.updated"],
      note: "unstable: an empty plan",
      map: ({ state, b, raw }) => [
        b.emit("turn.plan.updated", { plan: [], explanation: null }, state.context(raw)),
      ],
    },
    subagent_update: {
      yields: ["item.started", "task.started", "task.progress", "task.completed"],
      note:
        "unstable: a child session as a collab_agent_tool_call item and a subagent task (parentItemId = the item); " +
        "state idle completes the task; the child's own updates link to the item",
      map: ({ state, b, update, raw }) => mapSubagentUpdate(state, b, update, raw),
    },
    session_message: {
      yields: ["item.updated", "item.completed", "task.completed", "provider.event"],
      note: "unstable: the task sent to a child (the item's prompt) and the child's reply (completes the item)",
      map: ({ state, b, update, raw }) => mapSessionMessage(state, b, update, raw),
    },
    session_message_chunk: {
      yields: ["provider.event"],
      note: "unstable: a chunk of a message between sessions",
      map: ({ state, b, update, raw }) => [
        providerEvent(b, "session_message_chunk", raw, blockText(update.content), state.context(raw)),
      ],
    },
  };
}
