import { join } from "node:path";
import { acpAgentProgram } from "../../drivers/agent-programs.js";
import { claudeModelEnv, writeCodexHome } from "../../drivers/model-config.js";
import { makePrivateDir, makePrivateSubdir, writePrivateFile } from "../../drivers/temp-dirs.js";
import { copilotCommand, copilotMockEnv, opencodeCommand, opencodeMockEnv } from "./offline-agents.js";

/** ACP agents published on npm that run offline against the mock model. */
export const KNOWN_ACP_AGENTS = ["claude-agent-acp", "codex-acp", "opencode", "copilot"] as const;
export type KnownAcpAgent = (typeof KNOWN_ACP_AGENTS)[number];

/**
 * In a launch's env: a state dir this module made, which the ACP driver removes when the session ends (and its
 * process guard, if the host dies). The driver never passes the variable on to the agent.
 */
export const OWNED_STATE_DIR_ENV = "PROVIDER_RUNTIME_STATE_DIR";

/**
 * In a launch's env: the ACP session mode the driver switches the session to (`session/set_mode`) right after
 * `session/new` / `session/load`, when the agent offers it and is in another. Not passed on to the agent.
 */
export const SESSION_MODE_ENV = "PROVIDER_RUNTIME_ACP_SESSION_MODE";

/**
 * The session mode in which each known agent leaves the decisions to the host (it sends
 * `session/request_permission` and waits). The maintained adapters start in modes that decide by themselves:
 * claude-agent-acp 0.101 in `auto` (a model judges each action), codex-acp 2.6 in `agent` (Codex's auto reviewer).
 * - claude-agent-acp `default` ("Manual"): asks before edits and before any command that is not read-only.
 * - codex-acp `read-only`: approval policy on-request with the user as reviewer and a read-only sandbox: asks
 *   before a file edit, a write outside the sandbox, network access, and any command the model asks to run
 *   outside the sandbox (`sandbox_permissions: "require_escalated"`). Commands that only read run in the sandbox
 *   without asking; Codex's `untrusted` policy (ask for every command) is gone from codex-acp 2.x.
 */
export const HOST_APPROVAL_MODES: Partial<Record<KnownAcpAgent, string>> = {
  "claude-agent-acp": "default",
  "codex-acp": "read-only",
};

/**
 * Codex feature switches for codex-acp's Codex (0.166): without `default_mode_request_user_input` its
 * `request_user_input` tool answers the model itself outside plan mode ("request_user_input is unavailable in
 * Default mode") and never reaches codex-acp, which turns the questions into form elicitations.
 */
export const CODEX_ACP_FEATURES: Record<string, boolean> = { default_mode_request_user_input: true };

/**
 * What names each known agent on a command line: the adapters' package names; for the two native binaries their
 * npm package names and platform packages, or the program's own name followed by its ACP switch.
 */
const COMMAND_LINE_MARKS: Record<KnownAcpAgent, RegExp> = {
  "claude-agent-acp": /claude-agent-acp/,
  "codex-acp": /codex-acp/,
  opencode: /opencode-ai|opencode-(linux|darwin|windows)-|(^|[\s/])opencode(\.exe)? acp\b/,
  copilot: /@github[\\/]copilot|(^|[\s/])copilot(\.exe)? --acp\b/,
};

/** The known agent a command line runs, recognised by its package name. */
export function knownAcpAgentIn(commandLine: string): KnownAcpAgent | undefined {
  return KNOWN_ACP_AGENTS.find((name) => COMMAND_LINE_MARKS[name].test(commandLine));
}

/** The command line of a known agent, from the installed npm package. */
function commandOf(agent: KnownAcpAgent): string[] {
  if (agent === "opencode") return opencodeCommand();
  if (agent === "copilot") return copilotCommand();
  return acpAgentProgram(agent);
}

export interface AcpAgentLaunch {
  command: string[];
  /** Extra environment (model endpoint, config homes); empty without a model base URL. */
  env: Record<string, string>;
}

export interface AcpAgentCommandOptions {
  /** The mock model (or another model server): the agent's config points at it. */
  modelBaseUrl?: string;
  /** Where the agent's config home goes (the caller's, left alone); default: a fresh private temp dir. */
  stateDir?: string;
}

/**
 * The command line and environment of a known ACP agent: both are Node scripts, run under this Node. With or
 * without a model server, the env names the session mode in which the agent asks the host (HOST_APPROVAL_MODES);
 * against a model server it also points the agent's config at it and starts it in that mode from its own config.
 */
export async function acpAgentCommand(
  agent: KnownAcpAgent,
  options: AcpAgentCommandOptions = {},
): Promise<AcpAgentLaunch> {
  const { modelBaseUrl } = options;
  const command = commandOf(agent);
  const hostMode = HOST_APPROVAL_MODES[agent];
  // codex-acp reads the mode a new session starts in from INITIAL_AGENT_MODE.
  const mode: Record<string, string> =
    hostMode === undefined
      ? {}
      : agent === "codex-acp"
        ? { [SESSION_MODE_ENV]: hostMode, INITIAL_AGENT_MODE: hostMode }
        : { [SESSION_MODE_ENV]: hostMode };
  if (modelBaseUrl === undefined) return { command, env: mode };
  const stateDir = options.stateDir ?? (await makePrivateDir(`${agent}-`));
  const owned = options.stateDir === undefined ? { [OWNED_STATE_DIR_ENV]: stateDir } : {};
  const tmp = { TMPDIR: await makePrivateSubdir(join(stateDir, "tmp")) };
  if (agent === "opencode") {
    return { command, env: { ...(await opencodeMockEnv(modelBaseUrl, stateDir)), ...tmp, ...owned } };
  }
  if (agent === "copilot") {
    return { command, env: { ...(await copilotMockEnv(modelBaseUrl, stateDir)), ...tmp, ...owned } };
  }
  if (agent === "claude-agent-acp") {
    const configDir = await makePrivateSubdir(join(stateDir, "claude-config"));
    // The session starts in the host-asking mode already; the driver's session/set_mode then changes nothing.
    await writePrivateFile(
      join(configDir, "settings.json"),
      `${JSON.stringify({ permissions: { defaultMode: hostMode ?? "default" } }, null, 2)}\n`,
    );
    // IS_SANDBOX (set in some containers) makes the agent, running as root, pass a bypass-permissions flag that
    // Claude Code then refuses: session/new fails with "Query closed before response received".
    // No retries against the mock: a scripted model error should end the prompt at once.
    return {
      command,
      env: {
        HOME: configDir,
        ...claudeModelEnv(modelBaseUrl, configDir, 0),
        IS_SANDBOX: "",
        ...mode,
        ...tmp,
        ...owned,
      },
    };
  }
  // codex-acp 2.x refuses `approval_policy = "untrusted"` and ignores `sandbox_mode`: each turn runs with the
  // approval policy and sandbox of the session mode.
  // Its @openai/codex dependency ships bubblewrap, so the read-only sandbox works without a system bwrap.
  const codexHome = join(stateDir, "codex-home");
  const home = await writeCodexHome(codexHome, modelBaseUrl, {
    requestMaxRetries: 0,
    streamMaxRetries: 0,
    features: CODEX_ACP_FEATURES,
  });
  return {
    command,
    env: { HOME: codexHome, ...home, ...mode, ...tmp, ...owned },
  };
}
