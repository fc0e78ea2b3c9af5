import type { CreateSessionBody } from "../api/schemas.js";
import { KNOWN_ACP_AGENTS } from "../providers/acp/agent-commands.js";
import { SessionCommandError } from "./session-commands.js";

/**
 * `serve --known-agents-only`: the token lets a host drive agents, not name programs for the server to run. An ACP
 * `agent` must be an installed adapter named alone, and MCP servers HTTP endpoints (a stdio server is a program).
 */
export function refuseHostPrograms(body: CreateSessionBody): void {
  const agent = body.agent;
  if (
    agent !== undefined &&
    !(agent.length === 1 && (KNOWN_ACP_AGENTS as readonly string[]).includes(agent[0] ?? ""))
  ) {
    throw new SessionCommandError(
      "forbidden",
      `agent: this server runs only the installed adapters (${KNOWN_ACP_AGENTS.join(", ")}), named alone (--known-agents-only)`,
      "agent",
    );
  }
  const program = (body.mcpServers ?? []).find((server) => "command" in server);
  if (program !== undefined) {
    throw new SessionCommandError(
      "forbidden",
      `mcpServers: ${program.name} is a program to run; this server takes only HTTP MCP servers (--known-agents-only)`,
      "mcpServers",
    );
  }
}
