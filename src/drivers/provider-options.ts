import type { DriverOptions } from "../contracts/driver.js";

/**
 * Each provider's options for `createDriver(provider, options)`. Declared here, with no type from an agent SDK,
 * so that a host's typecheck does not depend on which agent packages it installed.
 */

/** `codex app-server` (`@openai/codex`). `agentCommand` replaces the command line; it must start an app-server. */
export interface CodexDriverOptions extends DriverOptions {}

/** A `--config` tree as `@openai/codex-sdk`'s `CodexOptions.config` takes it. */
export type CodexConfig = { [key: string]: CodexConfigValue };
export type CodexConfigValue = string | number | boolean | CodexConfigValue[] | CodexConfig;

/** `codex exec` through `@openai/codex-sdk`. */
export interface CodexSdkDriverOptions extends DriverOptions {
  /** `--config` values merged over the driver's (e.g. `{model_providers: {mock: {stream_max_retries: 1}}}`). */
  config?: CodexConfig;
  /** Run this executable instead of the codex binary the SDK bundles (tests use a wrapper); as `executablePath`. */
  codexPath?: string;
}

/** Claude Code's permission modes, as `@anthropic-ai/claude-agent-sdk` 0.3 spells them. */
export type ClaudePermissionMode =
  | "default"
  | "acceptEdits"
  | "bypassPermissions"
  | "plan"
  | "dontAsk"
  | "auto";

/** The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`), which runs the Claude Code binary it bundles. */
export interface ClaudeDriverOptions extends DriverOptions {
  /**
   * Claude Code's permission mode; default `default` (tools that need approval ask the host). Claude Code
   * refuses `bypassPermissions` to a root process unless `IS_SANDBOX=1`: when this process runs as root, the
   * driver sets it for that mode and says so in a `runtime.warning`.
   */
  permissionMode?: ClaudePermissionMode;
  /** Tools Claude may use without asking (permission rules such as `Read` or `Bash(npm test:*)`). */
  allowedTools?: string[];
  /** Tools Claude may not use at all. */
  disallowedTools?: string[];
  /**
   * Tools that always ask (an `ask` permission rule, which asks in every mode). Default `["Bash"]` (none under
   * `bypassPermissions`): without it Claude Code runs shell commands it considers read-only (such as `echo`)
   * without asking the host.
   */
  askTools?: string[];
  /** Forward subagent text and thinking as messages with `parent_tool_use_id` (default true). */
  forwardSubagentText?: boolean;
  /** `CLAUDE_CODE_MAX_RETRIES` for model API errors (Claude Code's default retries for minutes). */
  maxRetries?: number;
  /** Run this executable instead of the Claude Code binary the SDK bundles (tests use a wrapper); as `executablePath`. */
  pathToClaudeCodeExecutable?: string;
}

/** Cursor's `agent acp`; `agentCommand` replaces the command line. */
export interface CursorDriverOptions extends DriverOptions {}

/** Any ACP agent: `agentCommand` is its command line (see `acpAgentCommand` for the known ones on npm). */
export interface AcpDriverOptions extends DriverOptions {
  agentCommand: string[];
}

/** The options type of each provider: `createDriver("claude", …)` takes `ClaudeDriverOptions`. */
export interface DriverOptionsByProvider {
  codex: CodexDriverOptions;
  "codex-sdk": CodexSdkDriverOptions;
  claude: ClaudeDriverOptions;
  cursor: CursorDriverOptions;
  acp: AcpDriverOptions;
}
