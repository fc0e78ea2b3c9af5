import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_THINKING_SIGNATURE } from "../../src/mock-model/anthropic-stream.js";
import { LONG_DELTA_COUNT, SIDE_REQUEST_ANSWER, SUBAGENT_ANSWER } from "../../src/mock-model/scenarios.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { claudeTools, messagesRequest } from "./support/requests.js";
import { collapsedEventNames, eventNames, postSse, type SseResult } from "./support/sse-client.js";

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModel();
});
afterAll(() => server.close());

const post = (body: unknown) => postSse(`${server.baseUrl}/v1/messages?beta=true`, body);
type Delta = Record<string, unknown>;
const deltas = (result: SseResult): Delta[] =>
  result.events
    .filter((event) => event.event === "content_block_delta")
    .map((event) => event.data.delta as Delta);
const textOf = (result: SseResult) =>
  deltas(result)
    .filter((delta) => delta.type === "text_delta")
    .map((delta) => delta.text)
    .join("");
const blockStarts = (result: SseResult) =>
  result.events
    .filter((event) => event.event === "content_block_start")
    .map((event) => event.data.content_block as Record<string, unknown>);
const stopReason = (result: SseResult) =>
  (result.events.find((event) => event.event === "message_delta")?.data.delta as Delta | undefined)
    ?.stop_reason;
const toolInput = (result: SseResult) =>
  JSON.parse(
    deltas(result)
      .filter((delta) => delta.type === "input_json_delta")
      .map((delta) => delta.partial_json)
      .join(""),
  );

/** The follow-up request after a tool ran: the assistant's tool_use and the user's tool_result. */
function withToolResult(prompt: string, first: SseResult, output: string): Record<string, unknown> {
  const toolUse = blockStarts(first)[0] as Record<string, unknown>;
  const request = messagesRequest(prompt);
  (request.messages as unknown[]).push(
    { role: "assistant", content: [{ ...toolUse, input: toolInput(first) }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: toolUse.id, content: output },
        { type: "text", text: "<system-reminder>a reminder</system-reminder>" },
      ],
    },
  );
  return request;
}

const SINGLE_BLOCK_SEQUENCE = [
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
];

describe("Anthropic Messages API", () => {
  it("text: message_start … message_stop with end_turn and usage", async () => {
    const result = await post(messagesRequest("say hi mock:text"));
    expect(result.status).toBe(200);
    expect(collapsedEventNames(result)).toEqual(SINGLE_BLOCK_SEQUENCE);
    expect(textOf(result)).toBe("mock final answer: text");
    expect(stopReason(result)).toBe("end_turn");
    const start = result.events[0]?.data.message as Record<string, unknown>;
    expect(start).toMatchObject({
      role: "assistant",
      model: "claude-sonnet-4-5",
      usage: { input_tokens: expect.any(Number) },
    });
  });

  it("reasoning: a thinking block with thinking and signature deltas, then text", async () => {
    const result = await post(messagesRequest("mock:reasoning"));
    expect(blockStarts(result).map((block) => block.type)).toEqual(["thinking", "text"]);
    const kinds = deltas(result).map((delta) => delta.type);
    expect(kinds.slice(0, kinds.indexOf("signature_delta") + 1)).toEqual([
      "thinking_delta",
      "thinking_delta",
      "thinking_delta",
      "signature_delta",
    ]);
    expect(deltas(result).find((delta) => delta.type === "signature_delta")?.signature).toBe(
      MOCK_THINKING_SIGNATURE,
    );
    expect(textOf(result)).toBe("mock final answer: reasoning");
  });

  it("shell: a Bash tool_use, then a final answer after the tool_result", async () => {
    const first = await post(messagesRequest("mock:shell"));
    expect(collapsedEventNames(first)).toEqual(SINGLE_BLOCK_SEQUENCE);
    expect(blockStarts(first)[0]).toMatchObject({ type: "tool_use", name: "Bash" });
    expect(toolInput(first)).toEqual({
      command: "echo mock-shell-output | tee /dev/null",
      description: "Print the mock marker",
    });
    expect(stopReason(first)).toBe("tool_use");
    const second = await post(withToolResult("mock:shell", first, "mock-shell-output"));
    expect(textOf(second)).toBe("mock final answer: shell (saw mock-shell-output)");
  });

  it("edit: Write into the announced working directory", async () => {
    const result = await post(messagesRequest("mock:edit"));
    expect(blockStarts(result)[0]).toMatchObject({ name: "Write" });
    expect(toolInput(result)).toEqual({
      file_path: "/work/demo/mock-edit.txt",
      content: "written by the mock model\n",
    });
  });

  it("plan: TodoWrite when offered; else ToolSearch, then TaskCreate once it is referenced, then the answer", async () => {
    const todo = await post(
      messagesRequest("mock:plan", { tools: [...claudeTools, { name: "TodoWrite", input_schema: {} }] }),
    );
    expect(blockStarts(todo)[0]).toMatchObject({ name: "TodoWrite" });
    expect(toolInput(todo).todos).toHaveLength(3);

    const search = await post(messagesRequest("mock:plan"));
    expect(toolInput(search)).toEqual({ query: "select:TaskCreate" });
    const afterSearch = withToolResult("mock:plan", search, "");
    const toolResult = (afterSearch.messages as { content: Record<string, unknown>[] }[]).at(-1)?.content[0];
    if (toolResult !== undefined) toolResult.content = [{ type: "tool_reference", tool_name: "TaskCreate" }];
    afterSearch.tools = [...claudeTools, { name: "TaskCreate", input_schema: {}, defer_loading: true }];
    const create = await post(afterSearch);
    expect(blockStarts(create)[0]).toMatchObject({ name: "TaskCreate" });
  });

  it("question: AskUserQuestion with structured questions", async () => {
    const result = await post(messagesRequest("mock:question"));
    expect(blockStarts(result)[0]).toMatchObject({ name: "AskUserQuestion" });
    expect(toolInput(result).questions[0]).toMatchObject({
      header: "Colour",
      multiSelect: false,
      options: [{}, {}],
    });
  });

  it("subagent: an Agent call in the foreground; the subagent's own request gets a simple answer", async () => {
    const result = await post(messagesRequest("mock:subagent"));
    expect(blockStarts(result)[0]).toMatchObject({ name: "Agent" });
    const input = toolInput(result);
    expect(input).toMatchObject({ subagent_type: "general-purpose", run_in_background: false });
    const child = await post(messagesRequest(String(input.prompt)));
    expect(textOf(child)).toBe(SUBAGENT_ANSWER);
    const taskOnly = claudeTools.filter((tool) => tool.name !== "Agent");
    const legacy = await post(
      messagesRequest("mock:subagent", { tools: [...taskOnly, { name: "Task", input_schema: {} }] }),
    );
    expect(blockStarts(legacy)[0]).toMatchObject({ name: "Task" });
  });

  it("long: thousands of text deltas", async () => {
    const result = await post(messagesRequest("mock:long"));
    expect(deltas(result).filter((delta) => delta.type === "text_delta")).toHaveLength(LONG_DELTA_COUNT);
    expect(eventNames(result).at(-1)).toBe("message_stop");
  });

  it.each([
    [429, "mock:error-429", "rate_limit_error"],
    [500, "mock:error-500", "api_error"],
  ])("HTTP %i with an Anthropic error body", async (status, prompt, type) => {
    const result = await post(messagesRequest(prompt));
    expect(result.status).toBe(status);
    expect(result.json).toMatchObject({ type: "error", error: { type } });
  });

  it("cutoff: the stream breaks without message_stop; the non-streaming fallback breaks too", async () => {
    const result = await post(messagesRequest("mock:cutoff"));
    expect(result.endedCleanly).toBe(false);
    expect(eventNames(result)).toContain("content_block_delta");
    expect(eventNames(result)).not.toContain("message_stop");
    await expect(post(messagesRequest("mock:cutoff", { stream: false }))).rejects.toThrow();
  });

  it("a side request without tools gets a short text", async () => {
    const result = await post(messagesRequest("Generate a title for: mock:question", { tools: [] }));
    expect(textOf(result)).toBe(SIDE_REQUEST_ANSWER);
    expect(blockStarts(result).map((block) => block.type)).toEqual(["text"]);
  });

  it("a non-streaming request gets a plain JSON message", async () => {
    const result = await post(messagesRequest("mock:shell", { stream: false }));
    expect(result.json).toMatchObject({
      type: "message",
      stop_reason: "tool_use",
      content: [
        { type: "tool_use", name: "Bash", input: { command: expect.stringContaining("mock-shell-output") } },
      ],
    });
  });

  it("count_tokens answers input_tokens", async () => {
    const response = await fetch(`${server.baseUrl}/v1/messages/count_tokens?beta=true`, {
      method: "POST",
      body: JSON.stringify(messagesRequest("hello")),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ input_tokens: expect.any(Number) });
  });
});
