import { mockOptionsForAgent } from "../../src/mock-model/agent-scripts.js";
import { acpAgentCommand, type KnownAcpAgent } from "../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../src/providers/acp/driver.js";
import { type DriverTarget, proxyCommand } from "./harness.js";

/** A real ACP agent from npm behind the fault proxy: both agents fail the same way through the same driver. */
export function acpTarget(agent: KnownAcpAgent): DriverTarget {
  return {
    name: `acp (${agent})`,
    mock: mockOptionsForAgent(agent),
    make: async ({ cwd, modelBaseUrl, fault, limits }) => {
      // no stateDir: the launch makes one in TMPDIR that the driver owns and must remove (the harness checks)
      const launch = await acpAgentCommand(agent, { modelBaseUrl });
      return createAcpDriver({
        cwd,
        env: launch.env,
        agentCommand: proxyCommand(fault, launch.command),
        ...limits,
      });
    },
    midTurnLine: '"agent_message_chunk"',
    approvals: true,
    // the driver's tap parses every stdout line, so garbage and a message cut mid-line both become warnings
    garbage: "warn-and-continue",
    partialLine: "warn-and-continue",
    handshakeIn: "start",
  };
}
