import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import {
  acpAgentCommand,
  KNOWN_ACP_AGENTS,
  type KnownAcpAgent,
  knownAcpAgentIn,
} from "../../providers/acp/agent-commands.js";
import { splitCommand } from "./split-command.js";

export interface AgentLaunch {
  command: string[];
  env: Record<string, string>;
  /** Set when --mock was asked for an agent we do not know how to point at the mock model. */
  warning?: string;
}

/**
 * `--agent` takes a command line or the name of a known ACP agent on npm. With `--mock`, a known agent (by name or
 * recognised in the command line) gets the environment that points it at the mock model; its config home goes in
 * `stateDir` (the caller removes it), else in a temp dir of its own.
 */
export async function resolveAcpAgent(
  agent: string,
  modelBaseUrl: string | undefined,
  stateDir?: string,
): Promise<AgentLaunch> {
  const where = stateDir === undefined ? {} : { stateDir };
  const known = KNOWN_ACP_AGENTS.find((name) => agent === name);
  if (known !== undefined) {
    const launch = await acpAgentCommand(
      known,
      modelBaseUrl === undefined ? where : { modelBaseUrl, ...where },
    );
    return { command: launch.command, env: launch.env };
  }
  // The agent runs in its own working directory: relative paths on the command line are the caller's.
  const command = splitCommand(agent).map((part) =>
    part.includes("/") && !isAbsolute(part) && existsSync(part) ? resolve(part) : part,
  );
  if (modelBaseUrl === undefined) return { command, env: {} };
  const recognised: KnownAcpAgent | undefined = knownAcpAgentIn(agent);
  if (recognised === undefined) {
    return {
      command,
      env: {},
      warning: `--mock: "${agent}" is not a known ACP agent (${KNOWN_ACP_AGENTS.join(", ")}); it keeps its own model settings`,
    };
  }
  const launch = await acpAgentCommand(recognised, { modelBaseUrl, ...where });
  return { command, env: launch.env };
}
