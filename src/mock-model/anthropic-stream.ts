import type { ReplyBlock, ScriptedReply } from "./scenarios.js";
import {
  cutIndexAfterDeltas,
  estimateTokens,
  type ReplyContext,
  type SseEvent,
  type SseScript,
} from "./sse.js";

type StreamReply = Extract<ScriptedReply, { kind: "stream" }>;
type ContentBlock = Record<string, unknown>;

export const MOCK_THINKING_SIGNATURE = "mock-thinking-signature";

/** Renders a reply as the Messages API stream (`message_start` … `message_stop`). */
export function messagesStream(reply: StreamReply, context: ReplyContext): SseScript {
  const events: SseEvent[] = [];
  const push = (type: string, fields: Record<string, unknown> = {}) =>
    events.push({ event: type, data: { type, ...fields } });
  const message = messageObject(reply, context);
  push("message_start", {
    message: { ...message, content: [], stop_reason: null, usage: startUsage(context) },
  });
  reply.blocks.forEach((block, index) => {
    pushBlock(block, index, toolUseId(context, index), push);
  });
  push("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: outputTokens(reply) },
  });
  push("message_stop");

  if (reply.cutOffAfterDeltas === undefined) return { events };
  const isDelta = (event: SseEvent) => event.event === "content_block_delta";
  return { events, cutAfterEvents: cutIndexAfterDeltas(events, isDelta, reply.cutOffAfterDeltas) };
}

/** The non-streaming form (`stream: false`): the whole message as JSON. */
export function messagesJson(reply: StreamReply, context: ReplyContext): Record<string, unknown> {
  return messageObject(reply, context);
}

function messageObject(reply: StreamReply, context: ReplyContext) {
  const hasToolUse = reply.blocks.some((block) => block.type === "tool_call");
  return {
    id: `msg_mock_${context.requestNumber}`,
    type: "message",
    role: "assistant",
    model: context.model,
    content: reply.blocks.map((block, index) => contentBlock(block, toolUseId(context, index))),
    stop_reason: hasToolUse ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { ...startUsage(context), output_tokens: outputTokens(reply) },
  };
}

function startUsage(context: ReplyContext) {
  return {
    input_tokens: context.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 1,
  };
}

function toolUseId(context: ReplyContext, index: number): string {
  return `toolu_mock_${context.requestNumber}_${index}`;
}

function outputTokens(reply: StreamReply): number {
  const characters = reply.blocks.reduce(
    (sum, block) =>
      sum + (block.type === "tool_call" ? JSON.stringify(block.input) : block.deltas.join("")).length,
    0,
  );
  return estimateTokens(characters);
}

function contentBlock(block: ReplyBlock, id: string): ContentBlock {
  if (block.type === "reasoning")
    return { type: "thinking", thinking: block.deltas.join(""), signature: MOCK_THINKING_SIGNATURE };
  if (block.type === "text") return { type: "text", text: block.deltas.join("") };
  return { type: "tool_use", id, name: block.name, input: toolInput(block.input) };
}

/** The Messages API has no freeform tools; a string input becomes `{input}`. */
function toolInput(input: Record<string, unknown> | string): Record<string, unknown> {
  return typeof input === "string" ? { input } : input;
}

function pushBlock(
  block: ReplyBlock,
  index: number,
  id: string,
  push: (type: string, fields?: Record<string, unknown>) => void,
): void {
  const delta = (value: Record<string, unknown>) => push("content_block_delta", { index, delta: value });
  if (block.type === "reasoning") {
    push("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const thinking of block.deltas) delta({ type: "thinking_delta", thinking });
    delta({ type: "signature_delta", signature: MOCK_THINKING_SIGNATURE });
  } else if (block.type === "text") {
    push("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const text of block.deltas) delta({ type: "text_delta", text });
  } else {
    push("content_block_start", {
      index,
      content_block: { type: "tool_use", id, name: block.name, input: {} },
    });
    const json = JSON.stringify(toolInput(block.input));
    // Two partial chunks, as the real API splits tool input; both halves are needed to parse it.
    const middle = Math.floor(json.length / 2);
    delta({ type: "input_json_delta", partial_json: json.slice(0, middle) });
    delta({ type: "input_json_delta", partial_json: json.slice(middle) });
  }
  push("content_block_stop", { index });
}
