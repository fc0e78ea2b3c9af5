import { delimiter, join } from "node:path";
import { agentEnv } from "../../drivers/agent-env.js";
import { MOCK_API_KEY } from "../../drivers/model-config.js";
import { writeGuardScript } from "../../drivers/process-guard.js";
import type { CodexConfig, CodexConfigValue } from "../../drivers/provider-options.js";
import { makePrivateDir, makePrivateSubdir, removeDirs } from "../../drivers/temp-dirs.js";

export type { CodexConfig, CodexConfigValue } from "../../drivers/provider-options.js";

/**
 * Always on: exec 0.163 offers no `update_plan` tool unless asked, and without it a plan never reaches the host
 * (no todo_list item) — the app-server offers it, so plans look the same for both Codex drivers.
 */
const BASE_CONFIG: CodexConfig = { tools: { update_plan: { enabled: true } } };

/**
 * The model provider for a model server of our own (the mock): a custom `responses` provider. Never the SDK's
 * `baseUrl`/`apiKey` options, which re-point the built-in provider (it tries a WebSocket first and retries).
 */
export function mockProviderConfig(modelBaseUrl: string): CodexConfig {
  const base = modelBaseUrl.replace(/\/+$/, "");
  return {
    model_provider: "mock",
    model_providers: {
      mock: {
        name: "Mock",
        base_url: base.endsWith("/v1") ? base : `${base}/v1`,
        env_key: "MOCK_API_KEY",
        wire_api: "responses",
      },
    },
    analytics: { enabled: false },
    features: { plugins: false },
  };
}

export function codexConfig(modelBaseUrl: string | undefined, extra: CodexConfig | undefined): CodexConfig {
  let config = mergeConfig(BASE_CONFIG, modelBaseUrl === undefined ? {} : mockProviderConfig(modelBaseUrl));
  if (extra !== undefined) config = mergeConfig(config, extra);
  return config;
}

/** Objects merge key by key; anything else in `over` replaces. */
export function mergeConfig(base: CodexConfig, over: CodexConfig): CodexConfig {
  const out: CodexConfig = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isConfigObject(current) && isConfigObject(value) ? mergeConfig(current, value) : value;
  }
  return out;
}

function isConfigObject(value: CodexConfigValue | undefined): value is CodexConfig {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the driver made for exec: its environment, the guard script the SDK runs, and the dir to remove. */
export interface ExecEnvironment {
  env: Record<string, string>;
  /** The guard script (`codexPathOverride`): the SDK runs codex through it (see process-guard.ts). */
  executable: string;
  ownedDir: string;
  /** Where each running guard keeps a file (`guardsEnded`): exec writes to the home until it has exited. */
  pidDir: string;
}

/**
 * exec's environment: the allowlist of agent-env.ts (with a model server of our own, no host credentials), the
 * PATH dirs of the codex package, and with a model server a private HOME/CODEX_HOME (unless the caller passes
 * CODEX_HOME, e.g. to resume a thread recorded there) and TMPDIR. The session dir (0700) also holds the guard
 * script; it is removed at the end, also by the guard if the host dies.
 */
export async function execEnvironment(
  modelBaseUrl: string | undefined,
  extra: Record<string, string> | undefined,
  program: { path: string; pathDirs: string[] },
  niceness?: number,
): Promise<ExecEnvironment> {
  const ownedDir = await makePrivateDir("codex-sdk-home-");
  try {
    const own: Record<string, string> = {};
    if (modelBaseUrl !== undefined) {
      const home = extra?.CODEX_HOME ?? (await makePrivateSubdir(join(ownedDir, "home")));
      Object.assign(own, { HOME: home, CODEX_HOME: home, MOCK_API_KEY });
      own.TMPDIR = await makePrivateSubdir(join(ownedDir, "tmp"));
    }
    const env = agentEnv({ credentials: "codex", mock: modelBaseUrl !== undefined, own, extra });
    if (program.pathDirs.length > 0) env.PATH = [...program.pathDirs, env.PATH].join(delimiter);
    const pidDir = await makePrivateSubdir(join(ownedDir, "guards"));
    const executable = await writeGuardScript(join(ownedDir, "codex"), program.path, {
      cleanup: [ownedDir],
      niceness,
      pidDir,
    });
    return { env, executable, ownedDir, pidDir };
  } catch (error) {
    await removeDirs([ownedDir]);
    throw error;
  }
}
