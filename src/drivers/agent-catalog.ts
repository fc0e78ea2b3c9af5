import type { AgentInfo, DriverOptions, DriverProvider, RuntimeDriver } from "../contracts/driver.js";
import { KNOWN_ACP_AGENTS } from "../providers/acp/agent-commands.js";
import { AGENT_PACKAGES, type AgentPackage, installedVersion } from "./agent-programs.js";
import { capabilitiesOf } from "./capabilities.js";
import { findProgram } from "./process-guard.js";
import { makePrivateDir, removeDirs } from "./temp-dirs.js";

/** The package each built-in driver runs (Cursor's `agent` is not on npm: it is found on PATH). */
const DRIVER_PACKAGES: Partial<Record<DriverProvider, AgentPackage>> = {
  codex: AGENT_PACKAGES.codex,
  "codex-sdk": AGENT_PACKAGES.codexSdk,
  claude: AGENT_PACKAGES.claudeSdk,
};

/** The package of each known ACP agent (an agent added to KNOWN_ACP_AGENTS without one is listed as not installed). */
const ACP_AGENT_PACKAGES: Partial<Record<string, AgentPackage>> = {
  "claude-agent-acp": AGENT_PACKAGES.claudeAgentAcp,
  "codex-acp": AGENT_PACKAGES.codexAcp,
  opencode: AGENT_PACKAGES.opencode,
  copilot: AGENT_PACKAGES.copilot,
};

/** `createDriver` (passed in, so that this module does not import the drivers' index). */
export type DriverFactory = (provider: DriverProvider, options: DriverOptions) => Promise<RuntimeDriver>;

export interface ListAgentsOptions {
  /**
   * Also start each installed agent briefly (in a temp dir, stopped at once) to read the models and modes it
   * reports. Slow: seconds per agent.
   */
  probe?: boolean;
  /** For a probe: a model server the agents use instead of the real API (the mock model). */
  modelBaseUrl?: string;
  /** For a probe: how long each agent may take to start (default 20 s). */
  probeTimeoutMs?: number;
}

/**
 * Every driver and known ACP agent, with the version installed, the version tested, and what it can do
 * (DESIGN.md §11). Without `probe` nothing is started.
 */
export async function listAgentsWith(
  createDriver: DriverFactory,
  options: ListAgentsOptions = {},
): Promise<AgentInfo[]> {
  const agents: AgentInfo[] = [];
  for (const provider of ["codex", "codex-sdk", "claude", "cursor"] as const) {
    const pkg = DRIVER_PACKAGES[provider];
    agents.push(infoOf(provider, undefined, pkg));
  }
  for (const agent of KNOWN_ACP_AGENTS) agents.push(infoOf("acp", agent, ACP_AGENT_PACKAGES[agent]));
  if (options.probe === true) {
    for (const info of agents) if (info.installed) await probe(info, createDriver, options);
  }
  return agents;
}

function infoOf(
  provider: DriverProvider,
  agent: string | undefined,
  pkg: AgentPackage | undefined,
): AgentInfo {
  const version = pkg === undefined ? undefined : installedVersion(pkg.name);
  // Cursor's CLI is a program on PATH, not a package: it counts as installed when the driver can find it.
  const installed =
    pkg === undefined
      ? provider === "cursor" && findProgram("agent", process.env.PATH)
      : version !== undefined;
  return {
    provider,
    ...(agent === undefined ? {} : { agent }),
    installed,
    ...(version === undefined ? {} : { version }),
    testedVersion: pkg?.version ?? "unknown",
    ...(pkg === undefined ? {} : { package: pkg.name }),
    capabilities: capabilitiesOf(provider),
  };
}

/** Starts the agent, reads the capabilities it reported, and stops it; a failure leaves the static ones. */
async function probe(
  info: AgentInfo,
  createDriver: DriverFactory,
  options: ListAgentsOptions,
): Promise<void> {
  const provider = info.provider as DriverProvider;
  if (provider === "cursor") return;
  const cwd = await makePrivateDir("provider-runtime-probe-");
  let driver: RuntimeDriver | undefined;
  try {
    const driverOptions: DriverOptions = {
      cwd,
      startTimeoutMs: options.probeTimeoutMs ?? 20_000,
      ...(options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl }),
    };
    if (provider === "acp" && info.agent !== undefined) {
      const { acpAgentCommand } = await import("../providers/acp/agent-commands.js");
      const launch = await acpAgentCommand(info.agent as never, {
        ...(options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl }),
      });
      driverOptions.agentCommand = launch.command;
      driverOptions.env = launch.env;
    }
    driver = await createDriver(provider, driverOptions);
    const drained = drain(driver);
    await driver.start();
    info.capabilities = driver.capabilities;
    await driver.stop();
    await drained;
  } catch {
    await driver?.stop().catch(() => undefined);
  } finally {
    await removeDirs([cwd]);
  }
}

async function drain(driver: RuntimeDriver): Promise<void> {
  for await (const _event of driver.events) {
    // read so that the driver never pauses its agent
  }
}
