/**
 * Streamed content blocks (`stream_event`) and the `assistant` snapshots that repeat them.
 *
 * A block's identity is (scope, message id, content index of the stream), where scope is "main" or the
 * subagent's parent tool_use id. Claude Code sends one `assistant` snapshot per finished block whose `content`
 * holds only that block, so the snapshot's own content index says nothing about the stream index. Snapshot blocks
 * are therefore matched by identity, never by position: tool blocks by their tool_use id, text and thinking blocks
 * by (scope, message id, kind) to the first open streamed block whose text is a prefix of the snapshot's. The
 * missing tail, if any, is emitted as a last delta, so the deltas of an item always add up to the snapshot text.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, idKey, isObject, type JsonObject, num, str } from "../../kit/guards.js";
import { KeyJoiner } from "../../kit/key-joiner.js";
import { type ClaudeContext, emit, itemIdOf, parentItemIdOf, scopeOf } from "./context.js";
import type { StreamBlock } from "./state.js";
import { completeToolFromResultBlock, finalizeToolInput, startToolItem } from "./tool-items.js";
import { ensureTurn } from "./turn-start.js";

const TOOL_BLOCKS = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);
const TEXT_KINDS = { text: "assistant_message", thinking: "reasoning" } as const;
/** Known block types that carry nothing a canonical item needs (their raw is kept on the record's events). */
const QUIET_BLOCKS = new Set(["container_upload", "compaction", "fallback", "mcp_tool_listing"]);
const QUIET_DELTAS = new Set(["signature_delta", "citations_delta", "compaction_delta"]);

export function isToolResultBlock(type: string | undefined): boolean {
  return type !== undefined && (type.endsWith("_tool_result") || type === "mcp_tool_result");
}

/** `stream_event`: text/thinking deltas → content.delta; tool blocks → item.started, input accumulated. */
export function mapStreamEvent(ctx: ClaudeContext): RuntimeEvent[] {
  const event = asObject(ctx.msg.event);
  const type = str(event?.type);
  if (event === undefined || type === undefined)
    return [malformed(ctx, "stream_event without an event type")];
  const events = ensureTurn(ctx);
  const scope = scopeOf(ctx);
  switch (type) {
    case "message_start": {
      events.push(...closeScopeBlocks(ctx, scope));
      const id =
        str(asObject(event.message)?.id) ?? str(ctx.msg.api_message_id) ?? str(ctx.msg.uuid) ?? "message";
      ctx.state.currentMessage.set(scope, id);
      break;
    }
    case "content_block_start":
      events.push(...startBlock(ctx, scope, event));
      break;
    case "content_block_delta":
      events.push(...applyDelta(ctx, scope, event));
      break;
    case "content_block_stop":
      events.push(...stopBlock(ctx, scope, event));
      break;
    case "message_delta":
    case "message_stop":
      break;
    default:
      events.push(emit(ctx, "runtime.warning", unknownDetail("stream_event type", type)));
  }
  return events;
}

function startBlock(ctx: ClaudeContext, scope: string, event: JsonObject): RuntimeEvent[] {
  const block = asObject(event.content_block);
  const index = num(event.index);
  const type = str(block?.type);
  if (block === undefined || index === undefined || type === undefined)
    return [malformed(ctx, "content_block_start without index or block")];
  const messageId = currentMessageId(ctx, scope);
  const key = blockKey(scope, messageId, index);
  if (ctx.state.blocks.has(key)) return [];
  const parentItemId = parentItemIdOf(ctx);
  if (type === "text" || type === "thinking" || type === "redacted_thinking") {
    const kind = type === "text" ? "text" : "thinking";
    const stream: StreamBlock = {
      key,
      itemId: itemIdOf(ctx.state, `block:${ctx.state.turnCount}|${key}`),
      kind,
      text: "",
      stopped: false,
      completed: false,
      index,
      messageId,
      ...(parentItemId === undefined ? {} : { parentItemId }),
    };
    remember(ctx, scope, stream);
    const events: RuntimeEvent[] = [
      emit(
        ctx,
        "item.started",
        {
          itemType: TEXT_KINDS[kind],
          status: "inProgress",
          ...(type === "redacted_thinking" ? { data: { redacted: true } } : {}),
        },
        blockIds(stream),
      ),
    ];
    const initial = str(kind === "text" ? block.text : block.thinking) ?? "";
    if (initial.length > 0) events.push(...appendText(ctx, stream, initial));
    return events;
  }
  if (TOOL_BLOCKS.has(type)) {
    const toolUseId = idKey(block.id);
    if (toolUseId === undefined) return [malformed(ctx, `${type} block without an id`)];
    remember(ctx, scope, {
      key,
      itemId: itemIdOf(ctx.state, `tool:${toolUseId}`),
      kind: "tool",
      text: "",
      stopped: false,
      completed: false,
      index,
      messageId,
      toolUseId,
      ...(parentItemId === undefined ? {} : { parentItemId }),
    });
    const input = isObject(block.input) && Object.keys(block.input).length > 0 ? block.input : undefined;
    const name = str(block.name) ?? type;
    return startToolItem(ctx, toolUseId, name, type, input, parentItemId, str(block.server_name));
  }
  if (isToolResultBlock(type)) return completeToolFromResultBlock(ctx, block);
  if (QUIET_BLOCKS.has(type)) return [];
  return [emit(ctx, "runtime.warning", unknownDetail("content block type", type))];
}

function applyDelta(ctx: ClaudeContext, scope: string, event: JsonObject): RuntimeEvent[] {
  const delta = asObject(event.delta);
  const type = str(delta?.type);
  const index = num(event.index);
  if (delta === undefined || type === undefined || index === undefined)
    return [malformed(ctx, "content_block_delta without index or delta")];
  if (QUIET_DELTAS.has(type)) return [];
  const block = ctx.state.blocks.get(blockKey(scope, currentMessageId(ctx, scope), index));
  if (block === undefined) return [malformed(ctx, `${type} for a block that never started (index ${index})`)];
  if (type === "input_json_delta") {
    const tool = block.toolUseId === undefined ? undefined : ctx.state.tools.get(`tool:${block.toolUseId}`);
    if (tool !== undefined && !tool.state.inputFinal) tool.state.inputJson += str(delta.partial_json) ?? "";
    return [];
  }
  if (type === "text_delta" || type === "thinking_delta") {
    const text = str(type === "text_delta" ? delta.text : delta.thinking) ?? "";
    if (block.completed) return [malformed(ctx, `${type} after the block's snapshot completed it`)];
    return appendText(ctx, block, text);
  }
  return [emit(ctx, "runtime.warning", unknownDetail("content_block_delta type", type))];
}

function stopBlock(ctx: ClaudeContext, scope: string, event: JsonObject): RuntimeEvent[] {
  const index = num(event.index);
  if (index === undefined) return [malformed(ctx, "content_block_stop without index")];
  const block = ctx.state.blocks.get(blockKey(scope, currentMessageId(ctx, scope), index));
  if (block === undefined) return [];
  block.stopped = true;
  if (block.kind === "tool" && block.toolUseId !== undefined) return finalizeToolInput(ctx, block.toolUseId);
  return [];
}

/** `assistant`: reconciles each snapshot block with its streamed block (see the file comment). */
export function mapAssistantSnapshot(ctx: ClaudeContext): RuntimeEvent[] {
  const { msg, state } = ctx;
  const message = asObject(msg.message);
  const content = arr(message?.content);
  if (message === undefined || content === undefined)
    return [malformed(ctx, "assistant without message.content")];
  const events = ensureTurn(ctx);
  const error = str(msg.error);
  if (error !== undefined)
    events.push(
      emit(ctx, "runtime.error", {
        message: `assistant error: ${error}`,
        class: "provider_error",
        detail: { error },
      }),
    );
  const scope = scopeOf(ctx);
  const messageId = str(message.id) ?? str(msg.uuid) ?? "message";
  state.snapshotCount += 1;
  content.forEach((block, position) => {
    if (!isObject(block)) return;
    const type = str(block.type);
    if (type === "text")
      events.push(...reconcileText(ctx, scope, messageId, "text", str(block.text) ?? "", position));
    else if (type === "thinking")
      events.push(...reconcileText(ctx, scope, messageId, "thinking", str(block.thinking) ?? "", position));
    // Redacted thinking carries no text: it completes its item, with no whole text to give.
    else if (type === "redacted_thinking")
      events.push(...reconcileText(ctx, scope, messageId, "thinking", "", position, false));
    else if (type !== undefined && TOOL_BLOCKS.has(type)) events.push(...reconcileTool(ctx, block, type));
    else if (isToolResultBlock(type)) events.push(...completeToolFromResultBlock(ctx, block));
  });
  if (events.length === 0)
    events.push(
      emit(ctx, "provider.event", { name: "assistant", summary: "snapshot of blocks already complete" }),
    );
  return events;
}

function reconcileText(
  ctx: ClaudeContext,
  scope: string,
  messageId: string,
  kind: "text" | "thinking",
  text: string,
  position: number,
  whole = true,
): RuntimeEvent[] {
  const snapshot = whole ? text : undefined;
  const open = (ctx.state.messageBlocks.get(`${scope}|${messageId}`) ?? []).filter(
    (block) => block.kind === kind && !block.completed,
  );
  const match = open.find((block) => text.startsWith(block.text));
  if (match !== undefined) {
    const tail = text.slice(match.text.length);
    const events = tail.length > 0 ? appendText(ctx, match, tail) : [];
    events.push(completeBlock(ctx, match, "completed", undefined, snapshot));
    return events;
  }
  const diverged = open[0];
  if (diverged !== undefined) {
    return [
      emit(
        ctx,
        "runtime.warning",
        {
          message: "assistant snapshot text differs from the streamed text",
          detail: { reason: "snapshot-mismatch" },
        },
        blockIds(diverged),
      ),
      completeBlock(ctx, diverged, "completed", text, snapshot),
    ];
  }
  // Not streamed (no partial messages, or a subagent's forwarded text): the snapshot is the whole item.
  const parentItemId = parentItemIdOf(ctx);
  // A record that names itself (`uuid`) keys its block by that: the id then does not depend on what was mapped
  // before (a session file's new part mapped alone gives the same ids); else by the snapshot's place in the turn.
  const uuid = str(ctx.msg.uuid);
  const key = `${scope}|${messageId}|snapshot:${uuid ?? ctx.state.snapshotCount}:${position}`;
  const block: StreamBlock = {
    key,
    itemId: itemIdOf(ctx.state, uuid === undefined ? `block:${ctx.state.turnCount}|${key}` : `block:${key}`),
    kind,
    text: "",
    stopped: true,
    completed: false,
    index: position,
    messageId,
    ...(parentItemId === undefined ? {} : { parentItemId }),
  };
  const events: RuntimeEvent[] = [
    emit(ctx, "item.started", { itemType: TEXT_KINDS[kind], status: "inProgress" }, blockIds(block)),
  ];
  if (text.length > 0) events.push(...appendText(ctx, block, text));
  events.push(completeBlock(ctx, block, "completed", undefined, snapshot));
  return events;
}

function reconcileTool(ctx: ClaudeContext, block: JsonObject, type: string): RuntimeEvent[] {
  const toolUseId = idKey(block.id);
  if (toolUseId === undefined) return [malformed(ctx, `${type} block without an id`)];
  const input = isObject(block.input) ? block.input : undefined;
  const name = str(block.name) ?? type;
  const parentItemId = parentItemIdOf(ctx);
  const started = startToolItem(ctx, toolUseId, name, type, input, parentItemId, str(block.server_name));
  return started.length > 0 ? started : finalizeToolInput(ctx, toolUseId, input);
}

function appendText(ctx: ClaudeContext, block: StreamBlock, text: string): RuntimeEvent[] {
  block.text += text;
  const streamKind = block.kind === "text" ? "assistant_text" : "reasoning_text";
  return [
    emit(ctx, "content.delta", { streamKind, delta: text, contentIndex: block.index }, blockIds(block)),
  ];
}

function completeBlock(
  ctx: ClaudeContext,
  block: StreamBlock,
  status: "completed" | "failed",
  finalText?: string,
  snapshotText?: string,
): RuntimeEvent {
  block.completed = true;
  const itemType = block.kind === "text" ? "assistant_message" : "reasoning";
  const text = finalText ?? block.text;
  // details.text only from a whole-text snapshot; a block closed without one has only its streamed deltas.
  const details = snapshotText === undefined ? {} : { details: { text: snapshotText } };
  return emit(ctx, "item.completed", { itemType, status, ...details, data: { text } }, blockIds(block));
}

/** Blocks of the scope's previous message that stopped without a snapshot complete with what was streamed. */
function closeScopeBlocks(ctx: ClaudeContext, scope: string): RuntimeEvent[] {
  const previous = ctx.state.currentMessage.get(scope);
  return previous === undefined ? [] : closeMessage(ctx, `${scope}|${previous}`);
}

/** At turn end: every text or thinking block still open completes (failed if its stream never stopped). */
export function closeAllBlocks(ctx: ClaudeContext): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  for (const key of [...ctx.state.messageBlocks.entries()].map(([k]) => k))
    events.push(...closeMessage(ctx, key));
  ctx.state.currentMessage.clear();
  return events;
}

function closeMessage(ctx: ClaudeContext, messageKey: string): RuntimeEvent[] {
  const blocks = ctx.state.messageBlocks.release(messageKey) ?? [];
  const events: RuntimeEvent[] = [];
  for (const block of blocks) {
    ctx.state.blocks.release(block.key);
    if (block.kind === "tool" || block.completed) continue;
    events.push(completeBlock(ctx, block, block.stopped ? "completed" : "failed"));
  }
  return events;
}

function remember(ctx: ClaudeContext, scope: string, block: StreamBlock): void {
  ctx.state.blocks.set(block.key, block);
  const messageKey = `${scope}|${block.messageId}`;
  const list = ctx.state.messageBlocks.get(messageKey) ?? [];
  list.push(block);
  ctx.state.messageBlocks.set(messageKey, list);
}

function blockIds(block: StreamBlock): NonNullable<StreamBlock["ids"]> {
  block.ids ??= {
    itemId: block.itemId,
    ...(block.parentItemId === undefined ? {} : { parentItemId: block.parentItemId }),
    providerRefs: { providerItemId: block.toolUseId ?? `${block.messageId}:${block.index}` },
  };
  return block.ids;
}

function currentMessageId(ctx: ClaudeContext, scope: string): string {
  return ctx.state.currentMessage.get(scope) ?? str(ctx.msg.api_message_id) ?? "message";
}

const BLOCK_KEYS = new KeyJoiner("|");

function blockKey(scope: string, messageId: string, index: number): string {
  return BLOCK_KEYS.join(scope, messageId, index);
}

function malformed(ctx: ClaudeContext, problem: string): RuntimeEvent {
  return emit(ctx, "runtime.warning", {
    message: `malformed stream_event: ${problem}`,
    detail: { reason: "malformed-record" },
  });
}

function unknownDetail(what: string, kind: string) {
  return { message: `unknown ${what} "${kind}"`, detail: { reason: "unknown-kind", kind } };
}
