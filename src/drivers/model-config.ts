import { join } from "node:path";
import { makePrivateSubdir, writePrivateFile } from "./temp-dirs.js";

/**
 * The config a driver writes to point an agent at a model server of its choosing (the mock model): Codex's
 * `config.toml` with a custom `responses` provider, Claude Code's environment with a base URL.
 */

/** The key a driver gives an agent for a model server of its own; the server ignores it. */
export const MOCK_API_KEY = "mock-api-key";

/** Extra top-level keys of Codex's config.toml that drivers choose per run. */
export interface CodexHomeExtra {
  approvalPolicy?: "untrusted" | "on-failure" | "on-request" | "never";
  sandboxMode?: "read-only" | "workspace-write" | "danger-full-access";
  /** Defaults to gpt-5.5, a model Codex 0.171 knows (an unknown name adds a "model metadata not found" item). */
  model?: string;
  /** Codex retries a failed request (default 4 more times) and a broken stream (5 more times) with backoff. */
  requestMaxRetries?: number;
  streamMaxRetries?: number;
  /** More `[features]` switches (plugins stays off). */
  features?: Record<string, boolean>;
  /** `[agents] enabled`: false takes the subagent tools away from the model. */
  subagents?: boolean;
}

/** What to add to Codex's environment: its home, and the API key its `mock` provider reads. */
export interface CodexHomeEnv {
  CODEX_HOME: string;
  MOCK_API_KEY: string;
}

/** Writes `dir/config.toml` (0600, in a 0700 dir) pointing Codex at the model server, analytics and plugins off. */
export async function writeCodexHome(
  dir: string,
  baseUrl: string,
  extra: CodexHomeExtra = {},
): Promise<CodexHomeEnv> {
  await makePrivateSubdir(dir);
  await writePrivateFile(join(dir, "config.toml"), codexConfigToml(baseUrl, extra));
  return { CODEX_HOME: dir, MOCK_API_KEY };
}

export function codexConfigToml(baseUrl: string, extra: CodexHomeExtra = {}): string {
  const topLevel = [`model = ${tomlString(extra.model ?? "gpt-5.5")}`, `model_provider = "mock"`];
  if (extra.approvalPolicy !== undefined)
    topLevel.push(`approval_policy = ${tomlString(extra.approvalPolicy)}`);
  if (extra.sandboxMode !== undefined) topLevel.push(`sandbox_mode = ${tomlString(extra.sandboxMode)}`);
  return [
    ...topLevel,
    "",
    "[model_providers.mock]",
    `name = "Mock"`,
    `base_url = ${tomlString(`${baseUrl.replace(/\/+$/, "")}/v1`)}`,
    `env_key = "MOCK_API_KEY"`,
    `wire_api = "responses"`,
    ...retryKeys(extra),
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    ...Object.entries(extra.features ?? {}).map(([name, on]) => `${name} = ${on}`),
    "",
    ...(extra.subagents === undefined ? [] : ["[agents]", `enabled = ${extra.subagents}`, ""]),
  ].join("\n");
}

function retryKeys(extra: CodexHomeExtra): string[] {
  const keys: string[] = [];
  if (extra.requestMaxRetries !== undefined)
    keys.push(`request_max_retries = ${Math.trunc(extra.requestMaxRetries)}`);
  if (extra.streamMaxRetries !== undefined)
    keys.push(`stream_max_retries = ${Math.trunc(extra.streamMaxRetries)}`);
  return keys;
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * Claude Code's variables for a model server of our own: its config dir, the base URL, the key, and the switches
 * without which it also contacts api.anthropic.com and other hosts. Optionally `CLAUDE_CODE_MAX_RETRIES`
 * (Claude Code retries a failed request up to 10 times with backoff; 0 fails at once).
 */
export function claudeModelEnv(
  baseUrl: string,
  configDir: string,
  maxRetries?: number,
): Record<string, string> {
  return {
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: baseUrl.replace(/\/+$/, "").replace(/\/v1$/, ""),
    ANTHROPIC_API_KEY: MOCK_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    ...(maxRetries === undefined ? {} : { CLAUDE_CODE_MAX_RETRIES: String(Math.trunc(maxRetries)) }),
  };
}

export interface ClaudeEnvOptions {
  /** Defaults to `configDir`, so nothing of the real home directory is read. */
  home?: string;
  /** Defaults to this process's PATH. */
  path?: string;
  maxRetries?: number;
}

/** A whole environment for Claude Code against a model server: PATH, HOME and `claudeModelEnv`. */
export function claudeEnv(
  baseUrl: string,
  configDir: string,
  options: ClaudeEnvOptions = {},
): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.home ?? configDir,
    ...claudeModelEnv(baseUrl, configDir, options.maxRetries),
  };
}
