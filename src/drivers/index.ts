import type { DriverOptions, DriverProvider, RuntimeDriver } from "./types.js";

export * from "./driver-session.js";
export * from "./event-channel.js";
export * from "./types.js";

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

export async function createDriver(provider: DriverProvider, options: DriverOptions): Promise<RuntimeDriver> {
  const factory = await LOADERS[provider]();
  return factory(options);
}

export function isDriverProvider(value: string): value is DriverProvider {
  return (DRIVER_PROVIDERS as readonly string[]).includes(value);
}
