import {
  acpAgentCommand,
  KNOWN_ACP_AGENTS,
  type KnownAcpAgent,
  knownAcpAgentIn,
} from "../providers/acp/agent-commands.js";

export interface AcpLaunch {
  command: string[];
  env: Record<string, string>;
}

/** The known ACP agent a session's `agent` names or runs, if any (the mock plays some differently). */
export function knownAgentOf(agent: readonly string[] | undefined): KnownAcpAgent | undefined {
  return agent === undefined ? undefined : knownAcpAgentIn(agent.join(" "));
}

/**
 * A session's `agent`: a known agent's name alone (`["codex-acp"]`) runs the installed package; any other command
 * line runs as given. Against a model server, a known agent gets the environment pointing it at that server, its
 * config home under `stateDir` (the session's, kept for a resume).
 */
export async function acpLaunch(
  agent: readonly string[],
  modelBaseUrl: string | undefined,
  stateDir: string,
): Promise<AcpLaunch> {
  const where = modelBaseUrl === undefined ? { stateDir } : { modelBaseUrl, stateDir };
  const [first] = agent;
  const named = agent.length === 1 ? KNOWN_ACP_AGENTS.find((name) => name === first) : undefined;
  if (named !== undefined) return acpAgentCommand(named, where);
  const recognised = knownAgentOf(agent);
  if (modelBaseUrl === undefined || recognised === undefined) return { command: [...agent], env: {} };
  return { command: [...agent], env: (await acpAgentCommand(recognised, where)).env };
}
