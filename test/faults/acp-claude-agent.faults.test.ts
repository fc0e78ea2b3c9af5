import { acpAgentCommand } from "../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../src/providers/acp/driver.js";
import { describeFaults, proxyCommand } from "./harness.js";

describeFaults({
  name: "acp (claude-agent-acp)",
  make: async ({ cwd, modelBaseUrl, fault, startTimeoutMs, highWaterMark }) => {
    const launch = await acpAgentCommand("claude-agent-acp", { modelBaseUrl, stateDir: `${cwd}-state` });
    return createAcpDriver({
      cwd,
      env: launch.env,
      agentCommand: proxyCommand(fault, launch.command),
      ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
      ...(highWaterMark === undefined ? {} : { highWaterMark }),
    });
  },
  midTurnLine: '"agent_message_chunk"',
  approvals: true,
  garbage: "warn-and-continue",
  partialLine: "dropped-by-sdk",
  handshakeIn: "start",
  limitations: {
    partialLine:
      "a line that starts like JSON passes the driver's tap; the ACP SDK fails to parse it and drops it (console.error only)",
  },
});
