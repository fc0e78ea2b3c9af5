/** Minimal request bodies shaped like the ones Codex and Claude Code send. */

export function responsesRequest(
  prompt: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model: "gpt-5.5",
    stream: true,
    input: [
      { type: "message", role: "developer", content: [{ type: "input_text", text: "You are Codex." }] },
      {
        type: "message",
        role: "user",
        content: [
          {
            type: "input_text",
            text: "<environment_context>\n  <cwd>/work/demo</cwd>\n</environment_context>",
          },
        ],
      },
      { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
    ],
    tools: codexTools,
    ...extra,
  };
}

export const codexTools = [
  {
    type: "function",
    name: "exec_command",
    parameters: { type: "object", properties: { cmd: { type: "string" } } },
  },
  { type: "function", name: "request_user_input", parameters: { type: "object", properties: {} } },
  {
    type: "custom",
    name: "apply_patch",
    format: { type: "grammar", syntax: "lark", definition: "start: x" },
  },
];

export function messagesRequest(
  prompt: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model: "claude-sonnet-4-5",
    stream: true,
    max_tokens: 32000,
    system: [{ type: "text", text: "You are a Claude agent." }],
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: "<system-reminder>\n - Primary working directory: /work/demo\n</system-reminder>",
          },
          { type: "text", text: prompt },
        ],
      },
    ],
    tools: claudeTools,
    ...extra,
  };
}

const schema = (...names: string[]) => ({
  type: "object",
  properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
});

export const claudeTools = [
  { name: "Agent", input_schema: schema("description", "prompt", "subagent_type", "run_in_background") },
  { name: "AskUserQuestion", input_schema: schema("questions") },
  { name: "Bash", input_schema: schema("command", "description") },
  { name: "ToolSearch", input_schema: schema("query") },
  { name: "Write", input_schema: schema("file_path", "content") },
  { name: "DeferredToolPlaceholder", input_schema: schema(), defer_loading: true },
];
