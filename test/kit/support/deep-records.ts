import type { SourceName } from "../../../src/kit/mapper.js";

/** `{"a":{"a":…1…}}` `depth` levels deep, built by a loop. */
export function deepObject(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

/** The JSON text of deepObject(depth). */
export function deepObjectText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/**
 * Per source, the text of a native message of a kind its mapper copies into an event (a tool call's arguments),
 * holding `inner` (a JSON text) where the arguments go.
 */
export function toolCallWith(source: SourceName, inner: string): string {
  switch (source) {
    case "codex-app-server":
      return `{"jsonrpc":"2.0","method":"item/started","params":{"threadId":"th","turnId":"tu","item":{"type":"mcpToolCall","id":"i1","server":"s","tool":"t","arguments":${inner},"status":"inProgress"}}}`;
    case "codex-eventmsg":
    case "codex-rollout":
      return `{"type":"event_msg","timestamp":"2026-01-01T00:00:00.000Z","payload":{"type":"mcp_tool_call_begin","call_id":"c","invocation":{"server":"s","tool":"t","arguments":${inner}}}}`;
    case "codex-sdk":
      return `{"type":"item.started","item":{"id":"i","type":"mcp_tool_call","server":"s","tool":"t","arguments":${inner},"status":"in_progress"}}`;
    case "claude-sdk":
      return `{"type":"assistant","session_id":"s","uuid":"u","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":${inner}}]}}`;
    case "claude-code":
      return `{"type":"assistant","sessionId":"s","uuid":"u","timestamp":"2026-01-01T00:00:00.000Z","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":${inner}}]}}`;
    case "acp":
    case "cursor-acp":
      return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"x","kind":"execute","status":"pending","rawInput":${inner}}}}`;
  }
}
