import { type ReplyBlock, type ScriptedReply, TOOL_SEARCH } from "./scenarios.js";
import {
  cutIndexAfterDeltas,
  estimateTokens,
  type ReplyContext,
  type SseEvent,
  type SseScript,
} from "./sse.js";

type StreamReply = Extract<ScriptedReply, { kind: "stream" }>;
type OutputItem = Record<string, unknown>;

/** Renders a reply as the Responses API stream (`response.created` … `response.completed`). */
export function responsesStream(reply: StreamReply, context: ReplyContext): SseScript {
  const events: SseEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
  const pending = responseObject(context, "in_progress", [], undefined);
  push("response.created", { response: pending });
  push("response.in_progress", { response: pending });

  const output: OutputItem[] = [];
  let outputCharacters = 0;
  let reasoningCharacters = 0;
  reply.blocks.forEach((block, outputIndex) => {
    const itemId = `${itemPrefix(block)}_mock_${context.requestNumber}_${outputIndex}`;
    const item = writeItem(block, itemId, outputIndex, context, push);
    output.push(item);
    const characters = blockCharacters(block);
    outputCharacters += characters;
    if (block.type === "reasoning") reasoningCharacters += characters;
  });

  const usage = {
    input_tokens: context.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: estimateTokens(outputCharacters),
    output_tokens_details: {
      reasoning_tokens: reasoningCharacters === 0 ? 0 : estimateTokens(reasoningCharacters),
    },
    total_tokens: context.inputTokens + estimateTokens(outputCharacters),
  };
  push("response.completed", { response: responseObject(context, "completed", output, usage) });

  if (reply.cutOffAfterDeltas === undefined) return { events };
  const isDelta = (event: SseEvent) => event.event.endsWith(".delta");
  return { events, cutAfterEvents: cutIndexAfterDeltas(events, isDelta, reply.cutOffAfterDeltas) };
}

/** The non-streaming form: the final response object. */
export function responsesJson(reply: StreamReply, context: ReplyContext): Record<string, unknown> {
  const completed = responsesStream(reply, context).events.at(-1);
  return (completed?.data.response as Record<string, unknown> | undefined) ?? {};
}

function responseObject(
  context: ReplyContext,
  status: "in_progress" | "completed",
  output: OutputItem[],
  usage: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return {
    id: `resp_mock_${context.requestNumber}`,
    object: "response",
    created_at: 0,
    status,
    model: context.model,
    output,
    usage: usage ?? null,
  };
}

function itemPrefix(block: ReplyBlock): string {
  if (block.type === "reasoning") return "rs";
  if (block.type === "text") return "msg";
  if (block.toolSearch === true) return "tsc";
  return typeof block.input === "string" ? "ctc" : "fc";
}

function blockCharacters(block: ReplyBlock): number {
  if (block.type === "tool_call")
    return typeof block.input === "string" ? block.input.length : JSON.stringify(block.input).length;
  return block.deltas.join("").length;
}

type Push = (type: string, fields: Record<string, unknown>) => void;

function writeItem(
  block: ReplyBlock,
  itemId: string,
  outputIndex: number,
  context: ReplyContext,
  push: Push,
): OutputItem {
  const at = { item_id: itemId, output_index: outputIndex };
  if (block.type === "reasoning") {
    const text = block.deltas.join("");
    const part = { type: "summary_text", text };
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { id: itemId, type: "reasoning", summary: [] },
    });
    push("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: { ...part, text: "" } });
    for (const delta of block.deltas)
      push("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
    push("response.reasoning_summary_text.done", { ...at, summary_index: 0, text });
    push("response.reasoning_summary_part.done", { ...at, summary_index: 0, part });
    const item = { id: itemId, type: "reasoning", summary: [part] };
    push("response.output_item.done", { output_index: outputIndex, item });
    return item;
  }
  if (block.type === "text") {
    const text = block.deltas.join("");
    const at0 = { ...at, content_index: 0 };
    const base = { id: itemId, type: "message", role: "assistant" };
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { ...base, status: "in_progress", content: [] },
    });
    push("response.content_part.added", { ...at0, part: { type: "output_text", text: "", annotations: [] } });
    for (const delta of block.deltas) push("response.output_text.delta", { ...at0, delta, logprobs: [] });
    push("response.output_text.done", { ...at0, text, logprobs: [] });
    const part = { type: "output_text", text, annotations: [] };
    push("response.content_part.done", { ...at0, part });
    const item = { ...base, status: "completed", content: [part] };
    push("response.output_item.done", { output_index: outputIndex, item });
    return item;
  }
  const callId = `call_mock_${context.requestNumber}_${outputIndex}`;
  if ((block.toolSearch === true || block.name === TOOL_SEARCH) && typeof block.input !== "string") {
    // OpenAI's client-executed tool search: the agent answers with a `tool_search_output` of the tools it loaded
    const base = { id: itemId, type: "tool_search_call", call_id: callId, execution: "client" };
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { ...base, status: "in_progress", arguments: block.input },
    });
    const item = { ...base, status: "completed", arguments: block.input };
    push("response.output_item.done", { output_index: outputIndex, item });
    return item;
  }
  if (typeof block.input === "string") {
    const base = { id: itemId, type: "custom_tool_call", call_id: callId, name: block.name };
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { ...base, status: "in_progress", input: "" },
    });
    push("response.custom_tool_call_input.delta", { ...at, delta: block.input });
    push("response.custom_tool_call_input.done", { ...at, input: block.input });
    const item = { ...base, status: "completed", input: block.input };
    push("response.output_item.done", { output_index: outputIndex, item });
    return item;
  }
  const args = JSON.stringify(block.input);
  const base = {
    id: itemId,
    type: "function_call",
    call_id: callId,
    name: block.name,
    ...(block.namespace === undefined ? {} : { namespace: block.namespace }),
  };
  push("response.output_item.added", {
    output_index: outputIndex,
    item: { ...base, status: "in_progress", arguments: "" },
  });
  push("response.function_call_arguments.delta", { ...at, delta: args });
  push("response.function_call_arguments.done", { ...at, arguments: args });
  const item = { ...base, status: "completed", arguments: args };
  push("response.output_item.done", { output_index: outputIndex, item });
  return item;
}
