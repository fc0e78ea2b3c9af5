import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalDecision } from "../../../src/contracts/enums.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { mockOptionsForAgent } from "../../../src/mock-model/agent-scripts.js";
import { MULTI_TURN_PROMPTS, SCENARIO_PROMPTS } from "../../../src/mock-model/scenario-prompts.js";
import { startMockModel } from "../../../src/mock-model/server.js";
import { acpAgentCommand, type KnownAcpAgent } from "../../../src/providers/acp/agent-commands.js";
import { createAcpDriver } from "../../../src/providers/acp/driver.js";

/** A recorded conversation: prompts sent one after the other, approvals answered with one decision. */
export interface AcpScenario {
  name: string;
  prompts: string[];
  approve: ApprovalDecision;
}

export const ACP_SCENARIOS: AcpScenario[] = [
  { name: "text", prompts: [SCENARIO_PROMPTS.text], approve: "accept" },
  { name: "reasoning", prompts: [SCENARIO_PROMPTS.reasoning], approve: "accept" },
  { name: "shell-accepted", prompts: [SCENARIO_PROMPTS.shell], approve: "accept" },
  { name: "shell-declined", prompts: [SCENARIO_PROMPTS.shell], approve: "decline" },
  { name: "edit", prompts: [SCENARIO_PROMPTS.edit], approve: "accept" },
  { name: "plan", prompts: [SCENARIO_PROMPTS.plan], approve: "accept" },
  { name: "multi-turn", prompts: [...MULTI_TURN_PROMPTS], approve: "accept" },
  { name: "error-500", prompts: [SCENARIO_PROMPTS["error-500"]], approve: "accept" },
  { name: "question", prompts: [SCENARIO_PROMPTS.question], approve: "accept" },
  { name: "subagent", prompts: [SCENARIO_PROMPTS.subagent], approve: "accept" },
];

/** The first choice of each choice field of an elicitation form: a host's answers, as strings. */
function firstChoices(args: unknown): Record<string, string> {
  const schema = (
    args as { requestedSchema?: { properties?: Record<string, { oneOf?: { const?: unknown }[] }> } }
  )?.requestedSchema;
  const answers: Record<string, string> = {};
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    const first = field.oneOf?.[0]?.const;
    if (typeof first === "string") answers[name] = first;
  }
  return answers;
}

export interface ScenarioRunResult {
  events: RuntimeEvent[];
  transcript: string[];
}

/**
 * Runs one scenario against a real ACP agent and the mock model: start, each prompt to its turn.completed
 * (approvals answered), stop. Bounded by `timeoutMs`: a hung agent is stopped, never waited on forever.
 */
export async function runAcpScenario(
  agent: KnownAcpAgent,
  scenario: AcpScenario,
  options: { sessionId?: string; timeoutMs?: number } = {},
): Promise<ScenarioRunResult> {
  const mock = await startMockModel(mockOptionsForAgent(agent));
  const workDir = await mkdtemp(join(tmpdir(), `acp-${agent}-${scenario.name}-`));
  const transcript: string[] = [];
  const events: RuntimeEvent[] = [];
  try {
    const launch = await acpAgentCommand(agent, {
      modelBaseUrl: mock.baseUrl,
      stateDir: join(workDir, "state"),
    });
    const cwd = join(workDir, "project");
    await import("node:fs/promises").then((fs) => fs.mkdir(cwd, { recursive: true }));
    const driver = createAcpDriver({
      cwd,
      sessionId: options.sessionId ?? `${agent}-${scenario.name}`,
      agentCommand: launch.command,
      env: launch.env,
      record: (line) => transcript.push(line),
    });
    await driver.start();
    const timer = setTimeout(() => void driver.stop(), options.timeoutMs ?? 60_000);
    let turnsDone = 0;
    let promptsSent = 0;
    await driver.sendTurn({ text: scenario.prompts[promptsSent++] as string });
    for await (const event of driver.events) {
      events.push(event);
      if (event.type === "request.opened" && event.requestId !== undefined) {
        const asks = event.payload.requestType === "tool_user_input";
        await driver.respond(
          event.requestId,
          asks
            ? { decision: scenario.approve, answers: firstChoices(event.payload.args) }
            : { decision: scenario.approve },
        );
      }
      if (event.type === "turn.completed") {
        turnsDone++;
        if (promptsSent < scenario.prompts.length) {
          await driver.sendTurn({ text: scenario.prompts[promptsSent++] as string });
        } else if (turnsDone === scenario.prompts.length) {
          void driver.stop();
        }
      }
    }
    clearTimeout(timer);
    return { events, transcript };
  } finally {
    await mock.close();
    await rm(workDir, { recursive: true, force: true });
  }
}
