/**
 * The server and tool of an MCP tool named `mcp__<server>__<tool>` (Claude Code's and Codex's naming); the
 * server ends at the first `__`, so a tool name may hold `__` itself. Undefined for any other name.
 */
export function splitMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith("mcp__")) return undefined;
  const rest = name.slice("mcp__".length);
  const cut = rest.indexOf("__");
  if (cut <= 0 || cut + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}
