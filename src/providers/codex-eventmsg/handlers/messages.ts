import type { RuntimeEvent } from "../../../contracts/events.js";
import { num } from "../../../kit/guards.js";
import type { TurnState } from "../core.js";
import { textPatch } from "../details.js";
import { pick, pickId, pickStr } from "../fields.js";
import type { EventMsgTable, MsgContext } from "./table.js";

/**
 * Messages and reasoning. Codex sends each twice since items arrived: the item form (`item_*`,
 * `*_content_delta`, with ids) and the legacy form (`agent_message*`, `agent_reasoning*`, `user_message`, no ids).
 * A turn that carries the item form treats the legacy copies as duplicates (`provider.event`); older streams and
 * rollouts have only the legacy form, which then makes the items.
 */
export const messageHandlers: EventMsgTable = {
  agent_message_delta: {
    yields: ["item.started", "content.delta"],
    note: "assistant_text; a legacy copy when the turn streams agent_message_content_delta",
    handle: legacy("modernAgent", (ctx, turn) => {
      turn.assistantKey ??= ctx.core.freshKey(turn, "agent_message");
      return ctx.core.delta(turn.assistantKey, "assistant_message", "assistant_text", deltaOf(ctx), ctx.raw);
    }),
  },
  agent_message: {
    yields: ["item.completed", "content.delta"],
    note: "completes the assistant_message; its whole text becomes one delta when none streamed",
    handle: legacy("modernAgent", (ctx, turn) => {
      const key = turn.assistantKey ?? ctx.core.freshKey(turn, "agent_message");
      turn.assistantKey = undefined;
      turn.answered = true;
      const text = pickStr(ctx.p, "message") ?? "";
      const phase = pick(ctx.p, "phase");
      return ctx.core.completeItem(
        key,
        "assistant_message",
        ctx.raw,
        {
          status: "completed",
          details: textPatch(text),
          ...(phase === undefined ? {} : { data: { phase } }),
        },
        { streamKind: "assistant_text", text },
      );
    }),
  },
  agent_message_content_delta: {
    yields: ["item.started", "content.delta"],
    handle: modern("modernAgent", "assistant_message", "assistant_text"),
  },
  user_message: {
    yields: ["turn.started", "item.started", "item.completed"],
    note: "a user_message item; in streams without task_started it begins a synthesized turn",
    handle: (ctx) => {
      const { core, raw, p } = ctx;
      const events: RuntimeEvent[] = [];
      if (core.turn?.synthesized === true && core.turn.hadUser) {
        const state = core.turn.answered ? "completed" : "interrupted";
        events.push(...core.closeTurn({ state, stopReason: "next user message" }, raw));
      }
      const turn = core.ensureTurn(raw, events);
      if (turn.modernUser)
        return [...events, core.note("user_message", raw, "legacy copy of a user_message item")];
      turn.hadUser = true;
      const key = core.freshKey(turn, "user_message");
      const text = pickStr(p, "message") ?? "";
      const data = { text, images: pick(p, "images", "local_images") };
      const details = textPatch(text);
      events.push(...core.startItem(key, "user_message", raw, { details }));
      events.push(...core.completeItem(key, "user_message", raw, { status: "completed", details, data }));
      return events;
    },
  },
  agent_reasoning_delta: {
    yields: ["item.started", "content.delta"],
    note: "reasoning_summary_text",
    handle: legacy("modernReasoning", reasoningDelta("reasoning_summary_text")),
  },
  agent_reasoning: {
    yields: ["item.completed", "content.delta"],
    note: "completes the reasoning item (summary text)",
    handle: legacy("modernReasoning", (ctx, turn) => completeReasoning(ctx, turn, "reasoning_summary_text")),
  },
  agent_reasoning_raw_content_delta: {
    yields: ["item.started", "content.delta"],
    note: "reasoning_text",
    handle: legacy("modernReasoning", reasoningDelta("reasoning_text")),
  },
  agent_reasoning_raw_content: {
    yields: ["item.completed", "content.delta"],
    note: "completes the reasoning item (raw reasoning text)",
    handle: legacy("modernReasoning", (ctx, turn) => completeReasoning(ctx, turn, "reasoning_text")),
  },
  agent_reasoning_section_break: {
    yields: ["item.updated"],
    note: "a summary section boundary on the open reasoning item",
    handle: ({ core, p, raw }) => {
      const itemId = pickId(p, "item_id", "itemId");
      const key = itemId !== undefined ? core.itemKey(itemId) : core.turn?.reasoningKey;
      if (key === undefined || !core.isOpen(key)) return [core.note("agent_reasoning_section_break", raw)];
      const summaryIndex = num(pick(p, "summary_index", "summaryIndex"));
      return core.updateItem(key, "reasoning", raw, { data: { sectionBreak: true, summaryIndex } });
    },
  },
  reasoning_content_delta: {
    yields: ["item.started", "content.delta"],
    note: "reasoning_summary_text with summaryIndex",
    handle: modern("modernReasoning", "reasoning", "reasoning_summary_text", "summary_index"),
  },
  reasoning_raw_content_delta: {
    yields: ["item.started", "content.delta"],
    note: "reasoning_text with contentIndex",
    handle: modern("modernReasoning", "reasoning", "reasoning_text", "content_index"),
  },
  plan_delta: {
    yields: ["item.started", "content.delta"],
    note: "plan_text on the plan item",
    handle: modern(undefined, "plan", "plan_text"),
  },
};

type ModernFlag = "modernAgent" | "modernReasoning";

/** A legacy record: mapped when its turn has no item form, else a duplicate. */
function legacy(flag: ModernFlag, map: (ctx: MsgContext, turn: TurnState) => RuntimeEvent[]) {
  return (ctx: MsgContext): RuntimeEvent[] => {
    const events: RuntimeEvent[] = [];
    const turn = ctx.core.ensureTurn(ctx.raw, events);
    if (turn[flag]) return [...events, ctx.core.note(ctx.type, ctx.raw, "legacy copy of the item stream")];
    return [...events, ...map(ctx, turn)];
  };
}

/** An id-carrying delta of the item form. */
function modern(
  flag: ModernFlag | undefined,
  itemType: "assistant_message" | "reasoning" | "plan",
  streamKind: "assistant_text" | "reasoning_summary_text" | "reasoning_text" | "plan_text",
  indexField?: "summary_index" | "content_index",
) {
  return (ctx: MsgContext): RuntimeEvent[] => {
    const { core, p, raw } = ctx;
    const events: RuntimeEvent[] = [];
    const turn = core.ensureTurn(raw, events);
    if (flag !== undefined) turn[flag] = true;
    const nativeId = pickId(p, "item_id", "itemId") ?? `${ctx.type}`;
    const index: { contentIndex?: number; summaryIndex?: number } = {};
    if (indexField === "summary_index") {
      const value = num(pick(p, "summary_index", "summaryIndex"));
      if (value !== undefined) index.summaryIndex = value;
    } else if (indexField === "content_index") {
      const value = num(pick(p, "content_index", "contentIndex"));
      if (value !== undefined) index.contentIndex = value;
    }
    events.push(
      ...core.delta(core.itemKey(nativeId), itemType, streamKind, deltaOf(ctx), raw, index, nativeId),
    );
    return events;
  };
}

/** A legacy reasoning delta: opens the turn's reasoning item on first sight and streams into it. */
function reasoningDelta(streamKind: "reasoning_summary_text" | "reasoning_text") {
  return (ctx: MsgContext, turn: TurnState): RuntimeEvent[] => {
    turn.reasoningKey ??= ctx.core.freshKey(turn, "reasoning");
    return ctx.core.delta(turn.reasoningKey, "reasoning", streamKind, deltaOf(ctx), ctx.raw);
  };
}

function completeReasoning(
  ctx: MsgContext,
  turn: TurnState,
  streamKind: "reasoning_summary_text" | "reasoning_text",
): RuntimeEvent[] {
  const key = turn.reasoningKey ?? ctx.core.freshKey(turn, "reasoning");
  turn.reasoningKey = undefined;
  const text = pickStr(ctx.p, "text") ?? "";
  const fields = { status: "completed" as const, details: textPatch(text) };
  return ctx.core.completeItem(key, "reasoning", ctx.raw, fields, { streamKind, text });
}

function deltaOf(ctx: MsgContext): string {
  return pickStr(ctx.p, "delta") ?? "";
}
