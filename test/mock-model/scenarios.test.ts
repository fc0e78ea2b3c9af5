import { describe, expect, it } from "vitest";
import { readMessagesRequest } from "../../src/mock-model/anthropic-request.js";
import { readResponsesRequest } from "../../src/mock-model/openai-request.js";
import { scenarioFromPrompts } from "../../src/mock-model/prompt-markers.js";
import { SCENARIO_NAMES, scriptReply, splitWords } from "../../src/mock-model/scenarios.js";
import { messagesRequest, responsesRequest } from "./support/requests.js";

describe("scenario markers", () => {
  it("takes the latest prompt that has a known marker", () => {
    expect(scenarioFromPrompts(["mock:shell", "mock:edit please", "thanks"])).toBe("edit");
    expect(scenarioFromPrompts(["mock:shell then mock:plan"])).toBe("plan");
    expect(scenarioFromPrompts(["mock:nonsense"])).toBe("text");
    expect(scenarioFromPrompts([])).toBe("text");
  });

  it("every scenario name can be picked by its marker", () => {
    for (const name of SCENARIO_NAMES) {
      expect(readResponsesRequest(responsesRequest(`do mock:${name}`)).scenario).toBe(name);
      expect(readMessagesRequest(messagesRequest(`do mock:${name}`)).scenario).toBe(name);
    }
  });

  it("does not read markers out of tool results or assistant text", () => {
    const request = messagesRequest("hello");
    (request.messages as unknown[]).push(
      {
        role: "assistant",
        content: [
          { type: "text", text: "mock:shell" },
          { type: "tool_use", id: "t1", name: "Bash", input: {} },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "mock:edit" }] },
    );
    const facts = readMessagesRequest(request);
    expect(facts.scenario).toBe("text");
    expect(facts.toolResults).toEqual([{ toolName: "Bash", output: "mock:edit" }]);
  });

  it("counts only tool results after the latest prompt, so a new turn starts over", () => {
    const request = responsesRequest("mock:shell");
    const input = request.input as unknown[];
    input.push(
      { type: "function_call", call_id: "c1", name: "exec_command", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "done" },
    );
    expect(readResponsesRequest(request).toolResults).toEqual([{ toolName: "exec_command", output: "done" }]);
    input.push({ type: "message", role: "user", content: [{ type: "input_text", text: "again" }] });
    const facts = readResponsesRequest(request);
    expect(facts.toolResults).toEqual([]);
    expect(facts.scenario).toBe("shell");
  });

  it("a later turn in the same session follows its own marker", () => {
    const request = messagesRequest("mock:shell");
    (request.messages as unknown[]).push(
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      { role: "assistant", content: [{ type: "text", text: "mock final answer: shell" }] },
      { role: "user", content: [{ type: "text", text: "now mock:reasoning" }] },
    );
    const facts = readMessagesRequest(request);
    expect(facts).toMatchObject({ scenario: "reasoning", toolResults: [] });
    expect(scriptReply(facts)).toMatchObject({
      label: "reasoning",
      blocks: [{ type: "reasoning" }, { type: "text" }],
    });
  });

  it("reads the working directory each agent announces", () => {
    expect(readResponsesRequest(responsesRequest("x")).cwd).toBe("/work/demo");
    expect(readMessagesRequest(messagesRequest("x")).cwd).toBe("/work/demo");
  });

  it("does not offer deferred Claude tools until a ToolSearch result references them", () => {
    const tools = readMessagesRequest(messagesRequest("x")).tools;
    expect(tools.has("Bash")).toBe(true);
    expect(tools.has("DeferredToolPlaceholder")).toBe(false);
  });
});

describe("scriptReply", () => {
  it("answers a tool-less request with text whatever the marker says", () => {
    const facts = readResponsesRequest(responsesRequest("mock:error-500", { tools: [] }));
    expect(scriptReply(facts)).toMatchObject({ kind: "stream", label: "side-request" });
  });

  it("splits text into deltas that concatenate back", () => {
    expect(splitWords("mock final answer: text").join("")).toBe("mock final answer: text");
    expect(splitWords("a b")).toEqual(["a", " b"]);
  });
});
