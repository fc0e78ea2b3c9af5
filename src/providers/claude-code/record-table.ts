/**
 * The registry of session-file record types → handler and the canonical types each yields. Coverage is listed
 * from it. `system` and `progress` dispatch further by subtype (system-records.ts, progress-records.ts).
 */
import type { RuntimeEventType } from "../../contracts/event-types.js";
import { asObject, str } from "../../kit/guards.js";
import { emit } from "../claude/context.js";
import { mapAssistantSnapshot } from "../claude/stream-blocks.js";
import type { SessionFileHandler } from "./context.js";
import { mapProgressRecord } from "./progress-records.js";
import { BOOKKEEPING_TYPES, TITLE_TYPES } from "./record-kinds.js";
import { noteAgentCalls } from "./subagents.js";
import { mapSystemRecord } from "./system-records.js";
import { mapUserRecord } from "./user-records.js";

export interface RecordRow {
  group: "conversation" | "session" | "bookkeeping";
  yields: RuntimeEventType[];
  handle: SessionFileHandler;
  note?: string;
}

const ITEM: RuntimeEventType[] = ["item.started", "item.updated", "item.completed"];

/** An assistant record is one content block of a model message: its item, as a live snapshot gives it. */
const mapAssistantRecord: SessionFileHandler = (ctx) => {
  const message = asObject(ctx.record.message);
  const stop = message?.stop_reason;
  noteAgentCalls(ctx.record, ctx.file);
  const events = mapAssistantSnapshot(ctx);
  if (ctx.state.turnId !== undefined) {
    if (typeof stop === "string") ctx.file.turnStopReason = stop;
    if (ctx.record.isApiErrorMessage === true || str(ctx.record.error) !== undefined)
      ctx.file.turnError = assistantText(message) ?? str(ctx.record.error) ?? "API error";
  }
  return events;
};

function assistantText(message: Record<string, unknown> | undefined): string | undefined {
  const content = message?.content;
  if (!Array.isArray(content)) return undefined;
  const text = content.map((block) => str(asObject(block)?.text) ?? "").join("");
  return text.length > 0 ? text : undefined;
}

const mapAttachment: SessionFileHandler = (ctx) => [
  emit(ctx, "provider.event", {
    name: `attachment:${str(asObject(ctx.record.attachment)?.type) ?? "(none)"}`,
  }),
];

const mapTitle: SessionFileHandler = (ctx) => {
  const { record } = ctx;
  const name = str(record.customTitle) ?? str(record.aiTitle) ?? str(record.title) ?? str(record.summary);
  if (name === undefined) return [emit(ctx, "provider.event", { name: str(record.type) ?? "title" })];
  return [emit(ctx, "thread.metadata.updated", { name }, { turnId: undefined })];
};

const bookkeeping: RecordRow = {
  group: "bookkeeping",
  yields: ["provider.event"],
  handle: (ctx) => [emit(ctx, "provider.event", { name: str(ctx.record.type) ?? "record" })],
};

export const RECORD_KINDS: Record<string, RecordRow> = {
  user: {
    group: "conversation",
    yields: [
      "turn.started",
      "turn.completed",
      "request.opened",
      "request.resolved",
      "user-input.requested",
      "user-input.resolved",
      "turn.plan.updated",
      ...ITEM,
      "content.delta",
      "provider.event",
      "runtime.warning",
    ],
    handle: mapUserRecord,
    note: "a prompt (slash commands included) ends the open turn and starts one with a user_message item; tool_result → the tool item completes with details (toolUseResult as in a live session), permissionDecision from the user → request.opened/resolved, reject → declined; isMeta, compaction summaries, local command output, background task notifications → provider.event; [Request interrupted by user] → turn.completed interrupted; sidechain → the subagent's items with parentItemId",
  },
  assistant: {
    group: "conversation",
    yields: ["turn.started", "content.delta", ...ITEM, "runtime.error", "runtime.warning", "provider.event"],
    handle: mapAssistantRecord,
    note: "one content block per record (text, thinking, tool_use) → its whole item; error / isApiErrorMessage → runtime.error and the turn fails",
  },
  system: {
    group: "conversation",
    yields: ["thread.state.changed", "hook.completed", "runtime.warning", "provider.event"],
    handle: mapSystemRecord,
    note: "compact_boundary / microcompact_boundary → thread.state.changed compacted; stop_hook_summary → hook.completed; api_error → runtime.warning (api-retry); informational as the SDK's; other known subtypes → provider.event; an unknown subtype warns once",
  },
  progress: {
    group: "conversation",
    yields: ["hook.started", "tool.progress", "provider.event", "runtime.warning"],
    handle: mapProgressRecord,
    note: "hook_progress → hook.started; bash/powershell/mcp_progress → tool.progress; agent_progress links the subagent to its tool call; an unknown data.type warns once",
  },
  attachment: {
    group: "conversation",
    yields: ["provider.event"],
    handle: mapAttachment,
    note: "context Claude Code adds for the model (environment, reminders, listings): provider.event attachment:<type>",
  },
  ...Object.fromEntries(
    TITLE_TYPES.map((type) => [
      type,
      {
        group: "session",
        yields: ["thread.metadata.updated", "provider.event"],
        handle: mapTitle,
        note: "the conversation's title → thread.metadata.updated name",
      } satisfies RecordRow,
    ]),
  ),
  ...Object.fromEntries(BOOKKEEPING_TYPES.map((type) => [type, bookkeeping])),
};

export function isKnownRecordType(type: string): boolean {
  return Object.hasOwn(RECORD_KINDS, type);
}
