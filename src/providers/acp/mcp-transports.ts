import type { McpServerSpec } from "../../contracts/driver.js";
import { isObject, str } from "../../kit/guards.js";

/**
 * Why the agent would drop an MCP server it is given, read from its `initialize` answer, or undefined when it
 * takes them all. ACP v1 says every agent takes stdio servers and `mcpCapabilities.http` says whether it takes
 * HTTP ones; GitHub Copilot CLI answers `session/new` without error but drops a stdio server (its log:
 * `Rejecting non-http/sse MCP server "<name>" from client`), so a session would start without the tools.
 */
export function mcpServersRefusal(
  init: unknown,
  servers: readonly McpServerSpec[] | undefined,
  agentName: string,
): string | undefined {
  if (servers === undefined || servers.length === 0) return undefined;
  const capabilities = isObject(init) && isObject(init.agentCapabilities) ? init.agentCapabilities : {};
  const mcp = isObject(capabilities.mcpCapabilities) ? capabilities.mcpCapabilities : {};
  const http = servers.find((server) => "url" in server);
  if (http !== undefined && mcp.http !== true)
    return `${agentName} takes no HTTP MCP servers (no agentCapabilities.mcpCapabilities.http in its initialize answer): "${http.name}"`;
  const stdio = servers.find((server) => "command" in server);
  const agentInfo = isObject(init) && isObject(init.agentInfo) ? init.agentInfo : {};
  if (stdio !== undefined && str(agentInfo.name) === "Copilot")
    return `${agentName} drops stdio MCP servers given over ACP (it takes only HTTP and SSE ones from a client): give "${stdio.name}" as {name, url}`;
  return undefined;
}
