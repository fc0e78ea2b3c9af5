import { isObject, type JsonObject, objects, schemaPropertyNames, text } from "./json-shapes.js";
import { announcedCwd, isSubagentTaskPrompt, scenarioFromPrompts } from "./prompt-markers.js";
import { type OfferedTool, type RequestFacts, TOOL_SEARCH, type ToolResultFact } from "./scenarios.js";

const CALL_TYPES = new Set(["function_call", "custom_tool_call", "tool_search_call"]);
const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output", "tool_search_output"]);

/** Reads a Responses API request body (`POST /v1/responses`) into the facts a scenario needs. */
export function readResponsesRequest(body: unknown): RequestFacts {
  const request = isObject(body) ? body : {};
  const input = inputItems(request.input);
  const userIndexes = input.flatMap((item, index) => (isUserMessage(item) ? [index] : []));
  const prompts = userIndexes.map((index) => messageText(input[index]));
  const latestUser = userIndexes.at(-1) ?? -1;
  return {
    api: "openai-responses",
    scenario: scenarioFromPrompts(prompts),
    tools: offeredTools(request.tools, input),
    toolResults: toolResultsAfter(input, latestUser),
    toolSearch: objects(request.tools).some((tool) => tool.type === "tool_search"),
    isSubagentTask: isSubagentTaskPrompt(prompts.at(-1)),
    cwd: announcedCwd(
      input.filter((item) => item.type === "message" || item.role !== undefined).map(messageText),
    ),
  };
}

function inputItems(input: unknown): JsonObject[] {
  if (typeof input === "string") return [{ type: "message", role: "user", content: input }];
  return objects(input);
}

function isUserMessage(item: JsonObject): boolean {
  if (!((item.type === "message" || item.type === undefined) && item.role === "user")) return false;
  return !messageText(item).trimStart().startsWith("<subagent_notification>");
}

function messageText(item: JsonObject | undefined): string {
  const content = item?.content;
  if (typeof content === "string") return content;
  return objects(content)
    .map((part) => text(part.text) ?? "")
    .join("\n");
}

/**
 * The request's tools, those of an `additional_tools` item, and those a `tool_search_output` in the conversation
 * loaded (in namespaces).
 */
function offeredTools(tools: unknown, input: readonly JsonObject[]): Map<string, OfferedTool> {
  const offered = new Map<string, OfferedTool>();
  const add = (list: unknown, namespace: string | undefined) => {
    for (const tool of objects(list)) {
      // Codex's deferred-tool search is a tool of its own type, without a name.
      if (tool.type === TOOL_SEARCH) {
        offered.set(TOOL_SEARCH, { kind: "function", parameters: schemaPropertyNames(tool.parameters) });
        continue;
      }
      const name = text(tool.name);
      if (tool.type === "namespace" && name !== undefined) add(tool.tools, name);
      if (name === undefined || (tool.type !== "function" && tool.type !== "custom")) continue;
      offered.set(name, {
        kind: tool.type,
        parameters: schemaPropertyNames(tool.parameters),
        ...(namespace === undefined ? {} : { namespace }),
      });
    }
  };
  add(tools, undefined);
  for (const item of input) {
    // some models get their tools as an `additional_tools` input item (the `functions` namespace is the plain one)
    if (item.type === "additional_tools")
      for (const tool of objects(item.tools))
        add(tool.type === "namespace" && tool.name === "functions" ? tool.tools : [tool], undefined);
    if (item.type === "tool_search_output") add(item.tools, undefined);
  }
  return offered;
}

function toolResultsAfter(input: readonly JsonObject[], start: number): ToolResultFact[] {
  const callNames = new Map<string, string>();
  for (const item of input) {
    const callId = text(item.call_id);
    const name = item.type === "tool_search_call" ? TOOL_SEARCH : text(item.name);
    if (CALL_TYPES.has(String(item.type)) && callId !== undefined && name !== undefined)
      callNames.set(callId, name);
  }
  return input
    .slice(start + 1)
    .filter((item) => OUTPUT_TYPES.has(String(item.type)))
    .map((item) => ({
      toolName: item.type === "tool_search_output" ? "tool_search" : callNames.get(text(item.call_id) ?? ""),
      output: item.type === "tool_search_output" ? JSON.stringify(item.tools ?? []) : outputText(item.output),
    }));
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (isObject(output)) return text(output.content) ?? JSON.stringify(output);
  return objects(output)
    .map((part) => text(part.text) ?? "")
    .join("\n");
}
