import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LONG_DELTA_COUNT,
  SHELL_COMMAND,
  SIDE_REQUEST_ANSWER,
  SUBAGENT_ANSWER,
  SUBAGENT_TASK_SENTINEL,
} from "../../src/mock-model/scenarios.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/server.js";
import { codexTools, responsesRequest } from "./support/requests.js";
import { collapsedEventNames, eventNames, postSse, type SseResult } from "./support/sse-client.js";

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModel();
});
afterAll(() => server.close());

const post = (body: unknown, path = "/v1/responses") => postSse(`${server.baseUrl}${path}`, body);
const textOf = (result: SseResult) =>
  result.events
    .filter((event) => event.event === "response.output_text.delta")
    .map((event) => event.data.delta)
    .join("");
const doneItems = (result: SseResult) =>
  result.events
    .filter((event) => event.event === "response.output_item.done")
    .map((event) => event.data.item);

const TEXT_SEQUENCE = [
  "response.output_item.added",
  "response.content_part.added",
  "response.output_text.delta",
  "response.output_text.done",
  "response.content_part.done",
  "response.output_item.done",
];

describe("OpenAI Responses API", () => {
  it("text: streams one message and completes with usage", async () => {
    const result = await post(responsesRequest("say hi mock:text"));
    expect(result.status).toBe(200);
    expect(collapsedEventNames(result)).toEqual([
      "response.created",
      "response.in_progress",
      ...TEXT_SEQUENCE,
      "response.completed",
    ]);
    expect(textOf(result)).toBe("mock final answer: text");
    const completed = result.events.at(-1)?.data.response as Record<string, unknown>;
    expect(completed.status).toBe("completed");
    expect(completed.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect(result.events.map((event) => event.data.sequence_number)).toEqual(
      result.events.map((_, index) => index),
    );
  });

  it("a prompt without a marker gets text, also on the /responses path", async () => {
    const result = await post(responsesRequest("hello"), "/responses");
    expect(textOf(result)).toBe("mock final answer: text");
  });

  it("reasoning: a reasoning item with summary deltas, then the answer", async () => {
    const result = await post(responsesRequest("mock:reasoning"));
    expect(collapsedEventNames(result)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      ...TEXT_SEQUENCE,
      "response.completed",
    ]);
    expect(doneItems(result)[0]).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text" }] });
    expect(textOf(result)).toBe("mock final answer: reasoning");
  });

  it("shell: an exec_command call, then a final answer once the output came back", async () => {
    const first = await post(responsesRequest("run it mock:shell"));
    expect(collapsedEventNames(first)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const call = doneItems(first)[0] as Record<string, unknown>;
    expect(call).toMatchObject({ type: "function_call", name: "exec_command" });
    expect(JSON.parse(String(call.arguments))).toEqual({ cmd: SHELL_COMMAND });

    const followUp = responsesRequest("run it mock:shell");
    (followUp.input as unknown[]).push(call, {
      type: "function_call_output",
      call_id: call.call_id,
      output: "Process exited with code 0\nOutput:\nmock-shell-output\n",
    });
    expect(textOf(await post(followUp))).toBe("mock final answer: shell (saw mock-shell-output)");
  });

  it("edit: a freeform apply_patch call adding a file", async () => {
    const result = await post(responsesRequest("mock:edit"));
    expect(eventNames(result)).toContain("response.custom_tool_call_input.delta");
    expect(doneItems(result)[0]).toMatchObject({
      type: "custom_tool_call",
      name: "apply_patch",
      input: expect.stringContaining("*** Add File: mock-edit.txt"),
    });
  });

  it("plan: update_plan when offered, plain text when not (Codex 0.171 does not offer it)", async () => {
    const tools = [...codexTools, { type: "function", name: "update_plan", parameters: {} }];
    const offered = await post(responsesRequest("mock:plan", { tools }));
    const call = doneItems(offered)[0] as Record<string, unknown>;
    expect(call.name).toBe("update_plan");
    expect(JSON.parse(String(call.arguments)).plan).toHaveLength(3);
    expect(textOf(await post(responsesRequest("mock:plan")))).toBe(
      "mock final answer: plan (no plan tool offered)",
    );
  });

  it("question: request_user_input with structured questions", async () => {
    const call = doneItems(await post(responsesRequest("mock:question")))[0] as Record<string, unknown>;
    expect(call.name).toBe("request_user_input");
    expect(JSON.parse(String(call.arguments)).questions[0]).toMatchObject({
      id: "mock_colour",
      options: [{}, {}],
    });
  });

  it("subagent: plain text without spawn_agent, spawn_agent when offered, and the subagent's task answered", async () => {
    expect(textOf(await post(responsesRequest("mock:subagent")))).toBe(
      "mock final answer: subagent (no subagent tool offered)",
    );
    const tools = [...codexTools, { type: "function", name: "spawn_agent", parameters: {} }];
    const call = doneItems(await post(responsesRequest("mock:subagent", { tools })))[0] as Record<
      string,
      unknown
    >;
    expect(call.name).toBe("spawn_agent");
    expect(textOf(await post(responsesRequest(`${SUBAGENT_TASK_SENTINEL}: say hi`)))).toBe(SUBAGENT_ANSWER);
  });

  it("long: thousands of text deltas", async () => {
    const result = await post(responsesRequest("mock:long"));
    const deltas = eventNames(result).filter((name) => name === "response.output_text.delta");
    expect(deltas).toHaveLength(LONG_DELTA_COUNT);
    expect(eventNames(result).at(-1)).toBe("response.completed");
  });

  it.each([
    [429, "mock:error-429", "requests"],
    [500, "mock:error-500", "server_error"],
  ])("HTTP %i with an OpenAI error body, the same on every retry", async (status, prompt, type) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await post(responsesRequest(prompt));
      expect(result.status).toBe(status);
      expect(result.json).toMatchObject({
        error: { type, message: expect.stringContaining(String(status)) },
      });
    }
  });

  it("cutoff: the stream starts, then breaks without response.completed", async () => {
    const result = await post(responsesRequest("mock:cutoff"));
    expect(result.endedCleanly).toBe(false);
    expect(eventNames(result)).toContain("response.output_text.delta");
    expect(eventNames(result)).not.toContain("response.completed");
    expect(eventNames(result)).not.toContain("response.output_item.done");
  });

  it("a side request without tools gets a short text, never a tool call", async () => {
    const result = await post(responsesRequest("title for: mock:shell", { tools: [] }));
    expect(textOf(result)).toBe(SIDE_REQUEST_ANSWER);
    expect(eventNames(result)).not.toContain("response.function_call_arguments.delta");
  });

  it("a non-streaming request gets the response object as JSON", async () => {
    const result = await post(responsesRequest("mock:text", { stream: false }));
    expect(result.json).toMatchObject({
      object: "response",
      status: "completed",
      output: [{ type: "message", content: [{ type: "output_text", text: "mock final answer: text" }] }],
    });
  });
});
