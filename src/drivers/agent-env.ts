/**
 * The environment an agent program gets: never the host's whole environment. From the host, only an allowlist:
 * the basics every program needs, the network settings, and the credentials and config variables of the
 * provider behind the agent. With a model server of our own (`modelBaseUrl`, the mock) not even those: no host
 * credential, no proxy, no provider config reaches the agent, only what the driver sets (the mock's key, its
 * own config home). `DriverOptions.env` is the host's explicit choice and is added last, in both cases.
 */

/** Whose credentials and config variables an agent may see. */
export type AgentCredentials = "codex" | "claude" | "cursor" | "opencode" | "copilot" | "none";

interface Allow {
  names: readonly string[];
  prefixes: readonly string[];
}

/** What any program needs: its path, home, user, locale, terminal, temp dir and time zone. */
export const BASE_ALLOW: Allow = {
  names: ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR", "TZ"],
  prefixes: ["LC_"],
};

/** Proxies and the certificates a proxy needs; dropped with a mock model (it is on loopback). */
export const NETWORK_ALLOW: Allow = {
  names: [
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
  ],
  prefixes: [],
};

/** Each provider's own credentials and config variables. */
export const PROVIDER_ALLOW: Record<AgentCredentials, Allow> = {
  codex: {
    names: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORGANIZATION", "OPENAI_PROJECT", "RUST_LOG"],
    prefixes: ["CODEX_"],
  },
  claude: {
    names: [
      "DISABLE_TELEMETRY",
      "DISABLE_ERROR_REPORTING",
      "DISABLE_AUTOUPDATER",
      "DISABLE_NON_ESSENTIAL_MODEL_CALLS",
      "MAX_THINKING_TOKENS",
      "MCP_TIMEOUT",
      "MCP_TOOL_TIMEOUT",
      "BASH_DEFAULT_TIMEOUT_MS",
      "BASH_MAX_TIMEOUT_MS",
    ],
    prefixes: ["ANTHROPIC_", "CLAUDE_"],
  },
  cursor: { names: [], prefixes: ["CURSOR_"] },
  // OpenCode reads the keys of whichever model providers its config names; the common ones are allowed.
  opencode: {
    names: [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "OPENROUTER_API_KEY",
      "GEMINI_API_KEY",
      "XDG_CONFIG_HOME",
      "XDG_DATA_HOME",
    ],
    prefixes: ["OPENCODE_"],
  },
  copilot: { names: ["GH_TOKEN", "GITHUB_TOKEN", "GH_HOST"], prefixes: ["COPILOT_"] },
  none: { names: [], prefixes: [] },
};

/** Claude Code on Bedrock or Vertex reads the cloud's credentials: passed only when the host selected that cloud. */
const CLAUDE_CLOUDS: ReadonlyArray<{ switch: string; allow: Allow }> = [
  { switch: "CLAUDE_CODE_USE_BEDROCK", allow: { names: [], prefixes: ["AWS_"] } },
  {
    switch: "CLAUDE_CODE_USE_VERTEX",
    allow: { names: ["GOOGLE_APPLICATION_CREDENTIALS", "CLOUD_ML_REGION"], prefixes: ["VERTEX_REGION_"] },
  },
];

export interface AgentEnvOptions {
  credentials: AgentCredentials;
  /** A model server of our own (the mock): nothing of the host's but the basics. */
  mock: boolean;
  /** What the driver itself sets (its config home, the mock's key); over the host's. */
  own?: Record<string, string>;
  /** `DriverOptions.env`: the host's explicit additions; over everything. */
  extra?: Record<string, string> | undefined;
  /** The host environment to pick from (default `process.env`). */
  host?: NodeJS.ProcessEnv;
}

export function agentEnv(options: AgentEnvOptions): Record<string, string> {
  const host = options.host ?? process.env;
  const allows = [BASE_ALLOW];
  if (!options.mock) allows.push(NETWORK_ALLOW, ...providerAllows(options.credentials, host));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(host))
    if (value !== undefined && allows.some((allow) => allowed(allow, key))) env[key] = value;
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return { ...env, ...options.own, ...options.extra };
}

function providerAllows(credentials: AgentCredentials, host: NodeJS.ProcessEnv): Allow[] {
  const allows = [PROVIDER_ALLOW[credentials]];
  if (credentials === "claude")
    for (const cloud of CLAUDE_CLOUDS) if (truthy(host[cloud.switch])) allows.push(cloud.allow);
  return allows;
}

function allowed(allow: Allow, key: string): boolean {
  return allow.names.includes(key) || allow.prefixes.some((prefix) => key.startsWith(prefix));
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

/** Whose credentials an ACP agent gets: the provider behind it, recognised on its command line. */
export function acpAgentCredentials(
  provider: "acp" | "cursor",
  command: readonly string[],
  /** The known agent recognised on the command line, when the caller has it. */
  known?: string,
): AgentCredentials {
  if (provider === "cursor") return "cursor";
  if (known === "opencode" || known === "copilot") return known;
  const line = command.join(" ");
  if (line.includes("claude-agent-acp")) return "claude";
  if (line.includes("codex-acp")) return "codex";
  return "none";
}
