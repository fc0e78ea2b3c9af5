import type { CanonicalItemType, ContentStreamKind, ItemStatus } from "../../../contracts/enums.js";
import type { RuntimeEvent } from "../../../contracts/events.js";
import { arr, asObject, type JsonObject, num, str } from "../../../kit/guards.js";
import {
  collabPatch,
  commandPatch,
  type DetailsPatch,
  dynamicToolPatch,
  fileChangesPatch,
  imagePatch,
  mcpPatch,
  textPatch,
  webSearchPatch,
} from "../details.js";
import { contentText, pick, pickId, pickStr } from "../fields.js";
import type { EventMsgTable, MsgContext } from "./table.js";

/** TurnItem `type` (PascalCase in the core protocol, camelCase in v2) → canonical item type. */
const ITEM_TYPES: Record<string, CanonicalItemType> = {
  usermessage: "user_message",
  agentmessage: "assistant_message",
  reasoning: "reasoning",
  plan: "plan",
  commandexecution: "command_execution",
  filechange: "file_change",
  mcptoolcall: "mcp_tool_call",
  dynamictoolcall: "dynamic_tool_call",
  collabagenttoolcall: "collab_agent_tool_call",
  websearch: "web_search",
  imageview: "image_view",
  enteredreviewmode: "review_entered",
  exitedreviewmode: "review_exited",
  contextcompaction: "context_compaction",
  error: "error",
};

export function canonicalItemType(nativeType: string | undefined): CanonicalItemType {
  if (nativeType === undefined) return "unknown";
  return ITEM_TYPES[nativeType.replace(/[_-]/g, "").toLowerCase()] ?? "unknown";
}

/** `item_started` / `item_completed`: the item form of the turn (TurnItem). */
export const turnItemHandlers: EventMsgTable = {
  item_started: {
    yields: ["item.started"],
    note: "TurnItem type → canonical item type; item.updated when a legacy record announced the item first",
    handle: (ctx) => mapTurnItem(ctx, false),
  },
  item_completed: {
    yields: ["item.completed", "content.delta"],
    note: "messages, reasoning, plans and command output become one delta when none streamed",
    handle: (ctx) => mapTurnItem(ctx, true),
  },
};

function mapTurnItem(ctx: MsgContext, completed: boolean): RuntimeEvent[] {
  const { core, p, raw } = ctx;
  const item = asObject(p.item);
  if (item === undefined) return [core.note(ctx.type, raw, "no item")];
  const nativeType = str(item.type);
  const itemType = canonicalItemType(nativeType);
  const events: RuntimeEvent[] = [];
  const turn = core.ensureTurn(raw, events);
  if (itemType === "assistant_message") turn.modernAgent = true;
  if (itemType === "reasoning") turn.modernReasoning = true;
  if (itemType === "user_message") {
    turn.modernUser = true;
    turn.hadUser = true;
  }
  if (itemType === "assistant_message" && completed) turn.answered = true;
  const nativeId = pickId(item, "id", "call_id", "callId") ?? core.freshKey(turn, nativeType ?? "item");
  const key = core.itemKey(nativeId);
  const title = itemType === "unknown" ? nativeType : undefined;
  const fullText = fullTextOf(itemType, item);
  const details = detailsOf(itemType, item, fullText?.text);
  if (!completed) {
    events.push(...core.startItem(key, itemType, raw, { title, details }, nativeId));
    return events;
  }
  const fields = { status: statusOf(item), title, details, data: item };
  events.push(...core.completeItem(key, itemType, raw, fields, fullText, nativeId));
  return events;
}

/** What a TurnItem says of its details, by its canonical type (PascalCase and camelCase fields alike). */
function detailsOf(itemType: CanonicalItemType, item: JsonObject, text: string | undefined): DetailsPatch {
  switch (itemType) {
    case "user_message":
      return textPatch(contentText(item.content));
    case "assistant_message":
    case "plan":
    case "reasoning":
      return textPatch(text);
    case "command_execution":
      return commandPatch(item);
    case "file_change":
      return fileChangesPatch(item.changes);
    case "mcp_tool_call":
      return mcpPatch(item);
    case "dynamic_tool_call":
      return dynamicToolPatch(item);
    case "collab_agent_tool_call":
      return collabPatch(item);
    case "web_search":
      return webSearchPatch(item);
    case "image_view":
      return imagePatch(item);
    case "error": {
      const message = pickStr(item, "message");
      return message === undefined || message.length === 0 ? {} : { message };
    }
    default:
      return {};
  }
}

function fullTextOf(
  itemType: CanonicalItemType,
  item: JsonObject,
): { streamKind: ContentStreamKind; text: string } | undefined {
  switch (itemType) {
    case "assistant_message":
      return { streamKind: "assistant_text", text: contentText(item.content) ?? pickStr(item, "text") ?? "" };
    case "plan":
      return { streamKind: "plan_text", text: pickStr(item, "text") ?? "" };
    case "reasoning": {
      const summary = joined(pick(item, "summary_text", "summaryText", "summary"));
      if (summary.length > 0) return { streamKind: "reasoning_summary_text", text: summary };
      return {
        streamKind: "reasoning_text",
        text: joined(pick(item, "raw_content", "rawContent", "content")),
      };
    }
    case "command_execution":
      return {
        streamKind: "command_output",
        text: pickStr(item, "aggregated_output", "aggregatedOutput") ?? "",
      };
    default:
      return undefined;
  }
}

function joined(value: unknown): string {
  const parts = (arr(value) ?? []).map((part) =>
    typeof part === "string" ? part : str(asObject(part)?.text),
  );
  return parts.filter((part): part is string => part !== undefined).join("\n\n");
}

/** The item's own terminal status; a non-zero exit code is a failure. */
export function statusOf(item: JsonObject): ItemStatus {
  const status = str(item.status)?.toLowerCase();
  if (status === "failed" || status === "error") return "failed";
  if (status === "declined" || status === "rejected") return "declined";
  const exitCode = num(pick(item, "exit_code", "exitCode"));
  if (exitCode !== undefined && exitCode !== 0) return "failed";
  if (item.success === false) return "failed";
  return "completed";
}
