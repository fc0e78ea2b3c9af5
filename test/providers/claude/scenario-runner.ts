/**
 * Runs the real Claude Code (through the driver) against the mock model for one scripted scenario, answering
 * requests as the scenario says. Used by `scripts/record-claude.ts` and the driver tests. Node-only.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestResponse } from "../../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { startMockModel } from "../../../src/mock-model/index.js";
import { MULTI_TURN_PROMPTS, SCENARIO_PROMPTS } from "../../../src/mock-model/scenario-prompts.js";
import { type ClaudeDriverOptions, createClaudeDriver } from "../../../src/providers/claude/driver.js";

export interface ClaudeScenario {
  name: string;
  prompts: string[];
  /** The host's answer to each request (default: accept). */
  answer?: (event: RuntimeEvent) => RequestResponse;
  driver?: Partial<ClaudeDriverOptions>;
}

export const QUESTION_ANSWER = "Green";

const acceptAll = (): RequestResponse => ({ decision: "accept" });

export const CLAUDE_SCENARIOS: ClaudeScenario[] = [
  { name: "text", prompts: [SCENARIO_PROMPTS.text] },
  { name: "reasoning", prompts: [SCENARIO_PROMPTS.reasoning] },
  { name: "shell", prompts: [SCENARIO_PROMPTS.shell] },
  {
    name: "shell-decline",
    prompts: [SCENARIO_PROMPTS.shell],
    answer: () => ({ decision: "decline", message: "not now" }),
  },
  { name: "edit", prompts: [SCENARIO_PROMPTS.edit] },
  { name: "plan", prompts: [SCENARIO_PROMPTS.plan] },
  {
    name: "question",
    prompts: [SCENARIO_PROMPTS.question],
    answer: (event) => ({ decision: "accept", answers: answersFor(event) }),
  },
  { name: "subagent", prompts: [SCENARIO_PROMPTS.subagent] },
  { name: "long", prompts: [SCENARIO_PROMPTS.long] },
  { name: "error-500", prompts: [SCENARIO_PROMPTS["error-500"]], driver: { maxRetries: 1 } },
  { name: "multi-turn", prompts: [...MULTI_TURN_PROMPTS] },
];

function answersFor(event: RuntimeEvent): Record<string, string> {
  if (event.type !== "user-input.requested") return {};
  const questions = Array.isArray(event.payload.questions) ? event.payload.questions : [];
  const answers: Record<string, string> = {};
  for (const question of questions)
    if (typeof question?.id === "string") answers[question.id] = QUESTION_ANSWER;
  return answers;
}

export interface ScenarioRun {
  events: RuntimeEvent[];
  transcript: string[];
}

/** Runs the scenario's prompts one turn after another, then stops the session. */
export async function runClaudeScenario(scenario: ClaudeScenario, timeoutMs = 60_000): Promise<ScenarioRun> {
  const mock = await startMockModel();
  const cwd = await mkdtemp(join(tmpdir(), "claude-scenario-"));
  const transcript: string[] = [];
  const events: RuntimeEvent[] = [];
  const driver = createClaudeDriver({
    cwd,
    modelBaseUrl: mock.baseUrl,
    sessionId: `claude-${scenario.name}`,
    record: (line) => transcript.push(line),
    ...scenario.driver,
  });
  const timer = setTimeout(() => void driver.stop(), timeoutMs);
  try {
    await driver.start();
    const prompts = [...scenario.prompts];
    const first = prompts.shift();
    if (first !== undefined) await driver.sendTurn({ text: first });
    const answer = scenario.answer ?? acceptAll;
    const questionEvents = new Map<string, RuntimeEvent>();
    for await (const event of driver.events) {
      events.push(event);
      if (event.type === "user-input.requested" && event.requestId !== undefined)
        questionEvents.set(event.requestId, event);
      if (event.type === "request.opened" && event.requestId !== undefined) {
        const requestId = event.requestId;
        // The question arrives right after its request.opened; answer on the next tick.
        setImmediate(
          () =>
            void driver
              .respond(requestId, answer(questionEvents.get(requestId) ?? event))
              .catch(() => undefined),
        );
      }
      if (event.type === "turn.completed") {
        const next = prompts.shift();
        if (next === undefined) void driver.stop();
        else await driver.sendTurn({ text: next });
      }
    }
  } finally {
    clearTimeout(timer);
    await driver.stop();
    await mock.close();
    await rm(cwd, { recursive: true, force: true });
  }
  return { events, transcript };
}
