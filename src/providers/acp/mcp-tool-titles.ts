import { arr, isObject, str } from "../../kit/guards.js";

/**
 * MCP tools that agents name `<server><separator><tool>` with no `mcp__` mark: OpenCode offers them as
 * `<server>_<tool>` and GitHub Copilot CLI as `<server>-<tool>`, each part with characters outside
 * `[A-Za-z0-9_-]` replaced by `_`, and report the call with that name as its title. Only a server this session was
 * given (our `session/new`, `load` or `fork`) counts, so a built-in tool with such a name is never taken for one.
 */
export type McpToolName = { server: string; tool: string };

const SEPARATORS = ["_", "-"] as const;

const sanitized = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

/** The MCP server names in the params of our `session/new`, `session/load` or `session/fork`. */
export function mcpServerNamesOf(params: unknown): string[] {
  if (!isObject(params)) return [];
  return (arr(params.mcpServers) ?? []).flatMap((server) => {
    const name = isObject(server) ? str(server.name) : undefined;
    return name === undefined || name.length === 0 ? [] : [name];
  });
}

/** The server and tool a tool call's title names, where it starts with one of `servers` and a separator. */
export function mcpToolOfTitle(
  title: string | undefined,
  servers: readonly string[],
): McpToolName | undefined {
  if (title === undefined) return undefined;
  // the longest server name first: a server `a` must not claim `a_b_tool` of a server `a_b`
  const byLength = [...servers].sort((a, b) => b.length - a.length);
  for (const server of byLength) {
    const prefix = sanitized(server);
    for (const separator of SEPARATORS) {
      const head = `${prefix}${separator}`;
      if (title.startsWith(head) && title.length > head.length)
        return { server, tool: title.slice(head.length) };
    }
  }
  return undefined;
}
