import { mkdtemp } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** ACP agents published on npm that run offline against the mock model. */
export const KNOWN_ACP_AGENTS = ["claude-agent-acp", "codex-acp"] as const;
export type KnownAcpAgent = (typeof KNOWN_ACP_AGENTS)[number];

export interface AcpAgentLaunch {
  command: string[];
  /** Extra environment (model endpoint, config homes); empty without a model base URL. */
  env: Record<string, string>;
}

export interface AcpAgentCommandOptions {
  /** The mock model (or another model server): the agent's config points at it. */
  modelBaseUrl?: string;
  /** Where the agent's config home goes; default: a fresh temporary directory. */
  stateDir?: string;
}

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
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
  const stateDir = async () => options.stateDir ?? (await mkdtemp(join(tmpdir(), `${agent}-`)));
  if (agent === "claude-agent-acp") {
    const command = [
      process.execPath,
      join(packageDir("@zed-industries/claude-agent-acp"), "dist", "index.js"),
    ];
    if (modelBaseUrl === undefined) return { command, env: {} };
    const { claudeEnv } = await import("../../mock-model/agent-env.js");
    // IS_SANDBOX (set in some containers) makes the agent, running as root, pass a bypass-permissions flag that
    // Claude Code then refuses: session/new fails with "Query closed before response received".
    return {
      command,
      // No retries against the mock: a scripted model error should end the prompt at once.
      env: {
        ...claudeEnv(modelBaseUrl, join(await stateDir(), "claude-config"), { maxRetries: 0 }),
        IS_SANDBOX: "",
      },
    };
  }
  const platformPackage = `@zed-industries/codex-acp-${process.platform}-${process.arch}`;
  const command = [join(packageDir(platformPackage), "bin", "codex-acp")];
  if (modelBaseUrl === undefined) return { command, env: {} };
  const { writeCodexHome } = await import("../../mock-model/agent-env.js");
  // Against the mock the commands are the mock's own scripted ones. codex-acp's workspace-write sandbox needs
  // bubblewrap, which many machines (and CI) lack: there the command fails with a sandbox panic instead of running.
  const home = await writeCodexHome(join(await stateDir(), "codex-home"), modelBaseUrl, {
    approvalPolicy: "untrusted",
    sandboxMode: (await hasBubblewrap()) ? "workspace-write" : "danger-full-access",
    requestMaxRetries: 0,
    streamMaxRetries: 0,
  });
  return { command, env: { ...home } };
}

async function hasBubblewrap(): Promise<boolean> {
  const { access, constants } = await import("node:fs/promises");
  for (const dir of (process.env.PATH ?? "").split(":").filter(Boolean)) {
    try {
      await access(join(dir, "bwrap"), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}
