import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MOCK_API_KEY } from "../../mock-model/agent-env.js";

/** A `--config` tree as the SDK's `CodexOptions.config` takes it. */
export type CodexConfig = { [key: string]: CodexConfigValue };
export type CodexConfigValue = string | number | boolean | CodexConfigValue[] | CodexConfig;

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

/** The exec environment and the temporary CODEX_HOME the driver made (removed on stop), if any. */
export interface ExecEnvironment {
  env: Record<string, string> | undefined;
  ownedHome: string | undefined;
}

/**
 * With a model server of our own, exec runs in a clean environment: PATH, a private HOME/CODEX_HOME (unless the
 * caller passes CODEX_HOME, e.g. to resume a thread recorded there) and the mock's API key. Otherwise exec
 * inherits this process's environment plus `extra`.
 */
export async function execEnvironment(
  modelBaseUrl: string | undefined,
  extra: Record<string, string> | undefined,
): Promise<ExecEnvironment> {
  if (modelBaseUrl === undefined) {
    if (extra === undefined) return { env: undefined, ownedHome: undefined };
    const inherited: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) inherited[key] = value;
    return { env: { ...inherited, ...extra }, ownedHome: undefined };
  }
  const givenHome = extra?.CODEX_HOME;
  const home = givenHome ?? (await mkdtemp(join(tmpdir(), "codex-sdk-home-")));
  return {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      CODEX_HOME: home,
      MOCK_API_KEY,
      ...extra,
    },
    ownedHome: givenHome === undefined ? home : undefined,
  };
}

export async function removeHome(home: string | undefined): Promise<void> {
  if (home !== undefined) await rm(home, { recursive: true, force: true }).catch(() => undefined);
}
