import type { AgentInfo } from "../contracts/commands.js";
import type { DriverOptions, DriverProvider, RuntimeDriver } from "../contracts/driver.js";
import { type ListAgentsOptions, listAgentsWith } from "./agent-catalog.js";
import type { DriverOptionsByProvider } from "./provider-options.js";

export * from "../contracts/driver.js";
export {
  type AcpAgentCommandOptions,
  type AcpAgentLaunch,
  acpAgentCommand,
  KNOWN_ACP_AGENTS,
  type KnownAcpAgent,
} from "../providers/acp/agent-commands.js";
export {
  AGENT_PACKAGES,
  AgentNotInstalledError,
  type AgentPackage,
  installedVersion,
  type UntestedAgentVersion,
  untestedAgentVersions,
} from "./agent-programs.js";
export type { AwaitedCalls } from "./awaited-calls.js";
export * from "./driver-session.js";
export * from "./event-channel.js";
export * from "./provider-options.js";

export const DRIVER_PROVIDERS: readonly DriverProvider[] = ["codex", "codex-sdk", "claude", "cursor", "acp"];

type DriverLoader = () => Promise<(options: DriverOptions) => RuntimeDriver>;

/** Drivers load lazily so that importing one does not pull every provider SDK in. */
const LOADERS: Record<DriverProvider, DriverLoader> = {
  codex: async () => (await import("../providers/codex/driver.js")).createCodexDriver,
  "codex-sdk": async () => (await import("../providers/codex-sdk/driver.js")).createCodexSdkDriver,
  claude: async () => (await import("../providers/claude/driver.js")).createClaudeDriver,
  cursor: async () => (await import("../providers/acp/driver.js")).createCursorDriver,
  acp: async () => (await import("../providers/acp/driver.js")).createAcpDriver,
};

/**
 * A driver for one agent program. The options are the provider's own (`DriverOptionsByProvider`):
 * `createDriver("claude", { cwd, permissionMode: "acceptEdits" })` type-checks, the same for `"codex"` does not.
 */
export async function createDriver<P extends DriverProvider>(
  provider: P,
  options: DriverOptionsByProvider[P],
): Promise<RuntimeDriver> {
  const factory = await LOADERS[provider]();
  return factory(options);
}

export function isDriverProvider(value: string): value is DriverProvider {
  return (DRIVER_PROVIDERS as readonly string[]).includes(value);
}
export { BASE_CAPABILITIES, capabilitiesOf } from "./capabilities.js";

export type { ListAgentsOptions };

/**
 * Every driver and known ACP agent: installed or not, its version and tested version, and its capabilities
 * (`probe: true` starts each installed agent briefly to read the models and modes it reports).
 */
export function listAgents(options: ListAgentsOptions = {}): Promise<AgentInfo[]> {
  return listAgentsWith((provider, driverOptions) => createDriver(provider, driverOptions as never), options);
}
