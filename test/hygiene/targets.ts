import type { DriverOptions, RuntimeDriver } from "../../src/contracts/driver.js";
import { checkedNiceness } from "../../src/drivers/process-guard.js";
import type { ScriptOverride } from "../../src/mock-model/index.js";
import { acpAgentCommand, type KnownAcpAgent } from "../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../src/providers/acp/driver.js";
import { createClaudeDriver } from "../../src/providers/claude/driver.js";
import { createCodexDriver } from "../../src/providers/codex/driver.js";
import { createCodexSdkDriver } from "../../src/providers/codex-sdk/driver.js";

export const TARGETS = ["codex", "codex-sdk", "claude", "claude-agent-acp", "codex-acp"] as const;
export type Target = (typeof TARGETS)[number];

/** A driver for the target against a model server, as a host would make it (no state dir of the host's own). */
export async function makeDriver(target: Target, options: DriverOptions): Promise<RuntimeDriver> {
  if (target === "codex") return createCodexDriver(options);
  if (target === "claude") return createClaudeDriver(options);
  if (target === "codex-sdk")
    return createCodexSdkDriver({
      ...options,
      config: { model_providers: { mock: { stream_max_retries: 0, request_max_retries: 0 } } },
    });
  const agent: KnownAcpAgent = target;
  // the launch makes a state dir that only a driver made from it removes: a refused niceness must refuse first
  checkedNiceness(options.niceness);
  const launch = await acpAgentCommand(
    agent,
    options.modelBaseUrl === undefined ? {} : { modelBaseUrl: options.modelBaseUrl },
  );
  return createAcpDriver({ ...options, agentCommand: launch.command, env: launch.env });
}

/** codex exec asks no approval: its shell command is a long sleep, so the turn is surely in flight. */
export const slowExecCommand: ScriptOverride = (facts) =>
  facts.scenario === "shell" && facts.toolResults.length === 0 && facts.tools.has("exec_command")
    ? {
        kind: "stream",
        label: "shell",
        blocks: [{ type: "tool_call", name: "exec_command", input: { cmd: "sleep 30" } }],
      }
    : undefined;
