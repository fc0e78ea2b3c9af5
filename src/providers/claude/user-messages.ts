/**
 * `user` messages. From Claude (`in`): tool results complete tool items; text is a user_message item (a
 * subagent's prompt carries `parent_tool_use_id`, so its item links to the Task/Agent item). From the host
 * (`out`): the prompt the host pushed, which starts a turn when none is running.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, isObject, str } from "../../kit/guards.js";
import { type ClaudeContext, emit, itemIdOf, parentItemIdOf } from "./context.js";
import { completeToolFromResultBlock, outputText } from "./tool-items.js";
import { ensureTurn } from "./turn-start.js";

export function mapUserMessage(ctx: ClaudeContext): RuntimeEvent[] {
  const message = asObject(ctx.msg.message);
  if (message === undefined) return [malformed(ctx)];
  const isReplay = ctx.msg.isReplay === true;
  const events = isReplay ? [] : ensureTurn(ctx);
  const content = message.content;
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : (arr(content) ?? []);
  const results = blocks.filter((block) => isObject(block) && block.type === "tool_result");
  const toolUseResult = results.length === 1 ? ctx.msg.tool_use_result : undefined;
  for (const block of results)
    if (isObject(block)) events.push(...completeToolFromResultBlock(ctx, block, toolUseResult));
  const rest = blocks.filter((block) => !(isObject(block) && block.type === "tool_result"));
  if (rest.length > 0) events.push(...userMessageItem(ctx, outputText(rest)));
  if (events.length === 0)
    events.push(emit(ctx, "provider.event", { name: "user", summary: "empty user message" }));
  return events;
}

/** `out` user message: the host's prompt. */
export function mapHostPrompt(ctx: ClaudeContext): RuntimeEvent[] {
  const message = asObject(ctx.msg.message);
  if (message === undefined) return [malformed(ctx)];
  const events = ensureTurn(ctx);
  events.push(...userMessageItem(ctx, outputText(message.content)));
  return events;
}

/** A user_message item (started and completed at once): its text is known whole. */
export function userMessageItem(ctx: ClaudeContext, text: string): RuntimeEvent[] {
  const { state } = ctx;
  state.userMessageCount += 1;
  const uuid = str(ctx.msg.uuid);
  const itemId = itemIdOf(state, `user:${uuid ?? `#${state.userMessageCount}`}`);
  const parentItemId = parentItemIdOf(ctx);
  const ids = {
    itemId,
    ...(parentItemId === undefined ? {} : { parentItemId }),
    ...(uuid === undefined ? {} : { providerRefs: { providerItemId: uuid } }),
  };
  const data = {
    text,
    ...(ctx.msg.isSynthetic === true ? { synthetic: true } : {}),
    ...(ctx.msg.isReplay === true ? { replay: true } : {}),
  };
  // The message's content is its whole text, known from the start.
  const details = { text };
  return [
    emit(ctx, "item.started", { itemType: "user_message", status: "inProgress", details }, ids),
    emit(ctx, "item.completed", { itemType: "user_message", status: "completed", details, data }, ids),
  ];
}

function malformed(ctx: ClaudeContext): RuntimeEvent {
  return emit(ctx, "runtime.warning", {
    message: "malformed user: no message",
    detail: { reason: "malformed-record", kind: "user" },
  });
}
