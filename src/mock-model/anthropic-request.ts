import { isObject, type JsonObject, objects, schemaPropertyNames, text } from "./json-shapes.js";
import { announcedCwd, isSubagentTaskPrompt, scenarioFromPrompts } from "./prompt-markers.js";
import type { OfferedTool, RequestFacts, ToolResultFact } from "./scenarios.js";

/** Reads a Messages API request body (`POST /v1/messages`) into the facts a scenario needs. */
export function readMessagesRequest(body: unknown): RequestFacts {
  const request = isObject(body) ? body : {};
  const messages = objects(request.messages);
  // Claude Code sends tool results as user messages; a prompt is a user message that carries no tool result.
  const promptIndexes = messages.flatMap((message, index) => (isPrompt(message) ? [index] : []));
  const prompts = promptIndexes.map((index) => blockText(messages[index]?.content));
  const latestPrompt = promptIndexes.at(-1) ?? -1;
  return {
    api: "anthropic-messages",
    scenario: scenarioFromPrompts(prompts),
    tools: offeredTools(request.tools, messages),
    toolResults: toolResultsAfter(messages, latestPrompt),
    isSubagentTask: isSubagentTaskPrompt(prompts.at(-1)),
    deferredTools: deferredToolNames(request.system, messages),
    cwd: announcedCwd([
      blockText(request.system),
      ...messages.filter((m) => m.role === "user").map((m) => blockText(m.content)),
    ]),
  };
}

function blocks(content: unknown): JsonObject[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : objects(content);
}

function blockText(content: unknown): string {
  return blocks(content)
    .map((block) => (block.type === "text" ? (text(block.text) ?? "") : ""))
    .join("\n");
}

function isPrompt(message: JsonObject): boolean {
  if (message.role !== "user") return false;
  const content = blocks(message.content);
  return (
    content.some((block) => block.type === "text") && !content.some((block) => block.type === "tool_result")
  );
}

/**
 * A tool marked `defer_loading` cannot be called until a ToolSearch result referenced it (`tool_reference`), so it
 * counts as offered only from then on.
 */
function offeredTools(tools: unknown, messages: readonly JsonObject[]): Map<string, OfferedTool> {
  const referenced = referencedToolNames(messages);
  const offered = new Map<string, OfferedTool>();
  for (const tool of objects(tools)) {
    const name = text(tool.name);
    if (name === undefined || (tool.type !== undefined && tool.type !== "custom")) continue;
    if (tool.defer_loading === true && !referenced.has(name)) continue;
    offered.set(name, { kind: "function", parameters: schemaPropertyNames(tool.input_schema) });
  }
  return offered;
}

function referencedToolNames(messages: readonly JsonObject[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    for (const block of blocks(message.content)) {
      if (block.type !== "tool_result") continue;
      for (const part of objects(block.content)) {
        const name = text(part.tool_name);
        if (part.type === "tool_reference" && name !== undefined) names.add(name);
      }
    }
  }
  return names;
}

function toolResultsAfter(messages: readonly JsonObject[], start: number): ToolResultFact[] {
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    for (const block of blocks(message.content)) {
      const id = text(block.id);
      const name = text(block.name);
      if (block.type === "tool_use" && id !== undefined && name !== undefined) toolNames.set(id, name);
    }
  }
  return messages.slice(start + 1).flatMap((message) =>
    blocks(message.content)
      .filter((block) => block.type === "tool_result")
      .map((block) => ({
        toolName: toolNames.get(text(block.tool_use_id) ?? ""),
        output: typeof block.content === "string" ? block.content : blockText(block.content),
      })),
  );
}

const DEFERRED_MCP_TOOL = /\bmcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+/g;

/**
 * MCP tool names the context lists: Claude Code names its deferred tools in a system reminder (a user message) or,
 * under claude-agent-acp, in a message of role `system`.
 */
function deferredToolNames(system: unknown, messages: readonly JsonObject[]): string[] {
  const context = messages.filter((m) => m.role !== "assistant").map((m) => blockText(m.content));
  const texts = [blockText(system), ...context];
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(DEFERRED_MCP_TOOL)) names.add(match[0]);
  return [...names];
}
