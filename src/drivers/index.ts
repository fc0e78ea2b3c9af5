import type { DriverOptions, DriverProvider, RuntimeDriver } from "./types.js";

export * from "./driver-session.js";
export * from "./event-channel.js";
export * from "./types.js";

export const DRIVER_PROVIDERS: readonly DriverProvider[] = ["codex", "codex-sdk", "claude", "cursor", "acp"];

type DriverLoader = () => Promise<(options: DriverOptions) => RuntimeDriver>;

/** Drivers load lazily so that importing one does not pull every provider SDK in. */
const LOADERS: Record<DriverProvider, DriverLoader> = {
  codex: async () => unavailable("codex"),
  "codex-sdk": async () => (await import("../providers/codex-sdk/driver.js")).createCodexSdkDriver,
  claude: async () => unavailable("claude"),
  cursor: async () => unavailable("cursor"),
  acp: async () => unavailable("acp"),
};

function unavailable(provider: string): never {
  throw new Error(`the ${provider} driver is not available in this build`);
}

export async function createDriver(provider: DriverProvider, options: DriverOptions): Promise<RuntimeDriver> {
  const factory = await LOADERS[provider]();
  return factory(options);
}

export function isDriverProvider(value: string): value is DriverProvider {
  return (DRIVER_PROVIDERS as readonly string[]).includes(value);
}
