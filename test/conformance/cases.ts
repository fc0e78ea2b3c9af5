import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DriverOptions, RuntimeDriver } from "../../src/contracts/driver.js";
import { codexSdkBinary } from "../../src/drivers/agent-programs.js";
import { copilotBinary, opencodeBinary } from "../../src/drivers/native-agent-binaries.js";
import { mockOptionsForAgent } from "../../src/mock-model/agent-scripts.js";
import type { MockModelOptions } from "../../src/mock-model/index.js";
import { acpAgentCommand, type KnownAcpAgent } from "../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../src/providers/acp/driver.js";
import { createClaudeDriver } from "../../src/providers/claude/driver.js";
import { createCodexDriver } from "../../src/providers/codex/driver.js";
import { createCodexSdkDriver } from "../../src/providers/codex-sdk/driver.js";
import type { Concept, Support } from "./concepts.js";
import type { ControlFacts } from "./control-concepts.js";

export interface DriverCase {
  /** Column name in the README table. */
  name: string;
  create(options: DriverOptions): RuntimeDriver | Promise<RuntimeDriver>;
  support: Record<Concept, Support>;
  /** Mock model options for this driver's runs. */
  mock?: MockModelOptions;
  /** A model and a mode the agent offers, for the command surface's rows. */
  control: ControlFacts;
}

/**
 * `npm run drift` (scripts/drift.ts) installs the newest provider packages into PROVIDER_RUNTIME_DRIFT_DIR: the
 * cases then run the agent programs from there (the SDK modules the drivers import stay the pinned ones).
 */
const DRIFT_DIR = process.env.PROVIDER_RUNTIME_DRIFT_DIR;
const drifted = (relative: string): { executablePath: string } | Record<string, never> => {
  if (DRIFT_DIR === undefined) return {};
  const path = join(DRIFT_DIR, "node_modules", relative);
  if (!existsSync(path)) throw new Error(`drift: ${path} is not installed`);
  return { executablePath: path };
};

const yes: Support = { supported: true };
const no = (why: string): Support => ({ supported: false, why });

/** Where `npm run drift` installed the newest version of each known ACP agent's program. */
function driftedAcpCommand(agent: KnownAcpAgent, command: string[], driftDir: string): string[] {
  if (agent === "opencode") return [opencodeBinary(join(driftDir, "package.json")), ...command.slice(1)];
  if (agent === "copilot") return [copilotBinary(join(driftDir, "package.json")), ...command.slice(1)];
  return [
    process.execPath,
    join(driftDir, "node_modules", "@agentclientprotocol", agent, "dist", "index.js"),
  ];
}

const acpAgent = (agent: KnownAcpAgent) => async (options: DriverOptions) => {
  const launch = await acpAgentCommand(
    agent,
    options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl },
  );
  const command =
    DRIFT_DIR === undefined ? launch.command : driftedAcpCommand(agent, launch.command, DRIFT_DIR);
  return createAcpDriver({ ...options, agentCommand: command, env: launch.env });
};

const ALL: Record<Concept, Support> = {
  text: yes,
  reasoning: yes,
  "shell with approval": yes,
  "file edit": yes,
  plan: yes,
  question: yes,
  subagent: yes,
  "model error": yes,
  "multi-turn": yes,
  interrupt: yes,
  attachment: yes,
  "set model": yes,
  "set mode": yes,
  steer: yes,
  queue: yes,
  "MCP tool call": yes,
};

const CODEX_CONTROL: ControlFacts = {
  model: "gpt-5.6-luna",
  requestModel: /^gpt-5\.6-luna$/,
  mode: "plan",
  modeEvidence: /`sandbox_mode` is `read-only`/,
  asks: true,
};
const CLAUDE_CONTROL: ControlFacts = {
  model: "haiku",
  requestModel: /haiku/,
  mode: "plan",
  modeEvidence: /Plan mode is active|"permission_mode":"plan"/,
  asks: true,
};
const ACP_NO_STEER = no("ACP v1 has no call that adds input to a running prompt (UnsupportedError)");

const CODEX_LIMITS = {
  plan: no("codex 0.171.0 offers the model no update_plan tool"),
  question: no("codex 0.171.0 answers request_user_input with 'unavailable in Default mode'"),
};
const CLAUDE_NO_EXIT_CODE =
  "Claude Code 2.1's Bash result has stdout, stderr and interrupted, no exit status";

export const DRIVER_CASES: DriverCase[] = [
  {
    name: "Codex app server",
    create: (options) => createCodexDriver({ ...options, ...drifted("@openai/codex/bin/codex.js") }),
    support: { ...ALL, ...CODEX_LIMITS },
    control: CODEX_CONTROL,
  },
  {
    name: "Codex SDK (exec)",
    create: (options) =>
      createCodexSdkDriver({
        ...options,
        ...(DRIFT_DIR === undefined
          ? {}
          : { executablePath: codexSdkBinary(join(DRIFT_DIR, "package.json")).path }),
        config: { model_providers: { mock: { stream_max_retries: 0, request_max_retries: 0 } } },
      }),
    support: {
      ...ALL,
      "shell with approval": {
        supported: true,
        withoutApproval: true,
        note: "the command runs; exec has no approval channel, checked absent",
      },
      "file edit": {
        supported: true,
        absent: { diff: "exec's file_change item has paths and kinds, no diff" },
      },
      question: no("exec has no channel for questions to the user"),
      subagent: no("exec 0.163 offers no subagent tool"),
      steer: no("codex exec takes its input once per run (UnsupportedError)"),
    },
    control: { ...CODEX_CONTROL, asks: false },
  },
  {
    name: "Claude SDK",
    create: (options) =>
      createClaudeDriver({ ...options, ...drifted("@anthropic-ai/claude-agent-sdk-linux-x64/claude") }),
    support: {
      ...ALL,
      "shell with approval": { supported: true, absent: { exitCode: CLAUDE_NO_EXIT_CODE } },
    },
    control: CLAUDE_CONTROL,
  },
  {
    name: "ACP: claude-agent-acp",
    create: acpAgent("claude-agent-acp"),
    support: {
      ...ALL,
      "shell with approval": {
        supported: true,
        absent: {
          exitCode: `${CLAUDE_NO_EXIT_CODE}; the adapter sends one only in _meta.terminal_exit to clients that advertise terminal output`,
        },
      },
      plan: no(
        "claude-agent-acp 0.101.0 offers the model no TodoWrite and no TaskCreate (not even among its deferred tools)",
      ),
      steer: ACP_NO_STEER,
    },
    control: CLAUDE_CONTROL,
  },
  {
    name: "ACP: codex-acp",
    create: acpAgent("codex-acp"),
    mock: mockOptionsForAgent("codex-acp"),
    support: {
      ...ALL,
      "shell with approval": {
        supported: true,
        note: "read-only mode asks for a command run outside the sandbox: the mock's call asks for that (require_escalated)",
      },
      plan: no("codex-acp 2.6.0 (codex 0.166.0) offers the model no update_plan tool"),
      steer: ACP_NO_STEER,
    },
    control: {
      ...CODEX_CONTROL,
      mode: "full",
      modeEvidence: /`sandbox_mode` is `danger-full-access`/,
    },
  },
  {
    name: "ACP: opencode",
    create: acpAgent("opencode"),
    support: {
      ...ALL,
      plan: no(
        "opencode 1.18.33 runs its todowrite tool but sends the list as that tool call only, no ACP plan update",
      ),
      question: no(
        "opencode 1.18.33 offers the model no question tool over ACP (bash, edit, glob, grep, read, skill, task, todowrite, webfetch, write)",
      ),
      subagent: no(
        "opencode 1.18.33 runs its task tool's subagent but reports only the task tool call over ACP: no child session, subagent_update or session_message",
      ),
      "set mode": no("opencode 1.18.33 offers no session modes over ACP (UnsupportedError)"),
      steer: ACP_NO_STEER,
    },
    control: { model: "mock/m2", requestModel: /^m2$/, mode: "plan", asks: true },
  },
  {
    name: "ACP: copilot",
    create: acpAgent("copilot"),
    support: {
      ...ALL,
      plan: no(
        "copilot 1.0.102 offers the model no plan or todo tool over ACP (it keeps todos with its sql tool)",
      ),
      question: no("copilot 1.0.102 offers the model no question tool over ACP"),
      "model error": no(
        "copilot 1.0.102 retries a failed model request 5 times, then says so only in assistant text ('Error: Failed to get response from the AI model…') and ends the prompt end_turn",
      ),
      subagent: no(
        "copilot 1.0.102 runs its task tool's subagent but reports only the task tool call over ACP: no child session, subagent_update or session_message",
      ),
      "set model": no("copilot 1.0.102 reports no models and no model option over ACP (UnsupportedError)"),
      "MCP tool call": {
        supported: true,
        note: "an HTTP server; copilot 1.0.102 drops stdio ones given over ACP, so the driver refuses them (UnsupportedError)",
      },
      steer: ACP_NO_STEER,
    },
    control: {
      model: "claude-haiku-4-5",
      mode: "https://agentclientprotocol.com/protocol/session-modes#plan",
      // the next prompt carries a mode_changed_notice with the plan_mode instructions; the one before has neither
      modeEvidence: /<mode_changed_notice>.*<plan_mode>/,
      mcpTransport: "http",
      asks: true,
    },
  },
];
