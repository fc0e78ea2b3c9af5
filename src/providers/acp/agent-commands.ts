import { join } from "node:path";
import { acpAgentProgram } from "../../drivers/agent-programs.js";
import { claudeModelEnv, writeCodexHome } from "../../drivers/model-config.js";
import { findProgram } from "../../drivers/process-guard.js";
import { makePrivateDir, makePrivateSubdir } from "../../drivers/temp-dirs.js";

/** ACP agents published on npm that run offline against the mock model. */
export const KNOWN_ACP_AGENTS = ["claude-agent-acp", "codex-acp"] as const;
export type KnownAcpAgent = (typeof KNOWN_ACP_AGENTS)[number];

/**
 * In a launch's env: a state dir this module made, which the ACP driver removes when the session ends (and its
 * process guard, if the host dies). The driver never passes the variable on to the agent.
 */
export const OWNED_STATE_DIR_ENV = "PROVIDER_RUNTIME_STATE_DIR";

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
 * The command line and environment of a known ACP agent. claude-agent-acp runs under this Node; codex-acp is its
 * platform binary run directly (its `.bin` wrapper would orphan the binary when stopped).
 */
export async function acpAgentCommand(
  agent: KnownAcpAgent,
  options: AcpAgentCommandOptions = {},
): Promise<AcpAgentLaunch> {
  const { modelBaseUrl } = options;
  const command = acpAgentProgram(agent);
  if (modelBaseUrl === undefined) return { command, env: {} };
  const stateDir = options.stateDir ?? (await makePrivateDir(`${agent}-`));
  const owned = options.stateDir === undefined ? { [OWNED_STATE_DIR_ENV]: stateDir } : {};
  const tmp = { TMPDIR: await makePrivateSubdir(join(stateDir, "tmp")) };
  if (agent === "claude-agent-acp") {
    const configDir = await makePrivateSubdir(join(stateDir, "claude-config"));
    // IS_SANDBOX (set in some containers) makes the agent, running as root, pass a bypass-permissions flag that
    // Claude Code then refuses: session/new fails with "Query closed before response received".
    // No retries against the mock: a scripted model error should end the prompt at once.
    return {
      command,
      env: {
        HOME: configDir,
        ...claudeModelEnv(modelBaseUrl, configDir, 0),
        IS_SANDBOX: "",
        ...tmp,
        ...owned,
      },
    };
  }
  // Against the mock the commands are the mock's own scripted ones. codex-acp's workspace-write sandbox needs
  // bubblewrap, which many machines (and CI) lack: there the command would fail with a sandbox panic, so it runs
  // unsandboxed — never silently: the ACP driver emits a runtime.warning for a danger-full-access config.
  const codexHome = join(stateDir, "codex-home");
  const home = await writeCodexHome(codexHome, modelBaseUrl, {
    approvalPolicy: "untrusted",
    sandboxMode: findProgram("bwrap", process.env.PATH) ? "workspace-write" : "danger-full-access",
    requestMaxRetries: 0,
    streamMaxRetries: 0,
  });
  return { command, env: { HOME: codexHome, ...home, ...tmp, ...owned } };
}
