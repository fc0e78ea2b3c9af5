import type { ScenarioName } from "./scenarios.js";

/** A user prompt that picks each scenario: what the recorders, scenario runners and conformance suite send. */
export const SCENARIO_PROMPTS: Record<ScenarioName, string> = {
  text: "mock:text say hello",
  reasoning: "mock:reasoning think first",
  shell: "mock:shell run a command",
  edit: "mock:edit write a file",
  plan: "mock:plan make a plan",
  question: "mock:question ask me",
  subagent: "mock:subagent delegate",
  long: "mock:long write a lot",
  "error-429": "mock:error-429 slow down",
  "error-500": "mock:error-500 fail please",
  cutoff: "mock:cutoff the stream breaks",
  mcp: "mock:mcp call the MCP tool",
  hold: "mock:hold run until released",
};

/** Two turns: a text answer, then a command (with its approval). */
export const MULTI_TURN_PROMPTS: readonly string[] = [SCENARIO_PROMPTS.text, SCENARIO_PROMPTS.shell];

/** What a recorder sends for a recording named after a scenario (or `multi-turn`): that scenario's prompt. */
export function scenarioRecordings(
  names: readonly (ScenarioName | "multi-turn")[],
): Record<string, { prompts: string[] }> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      { prompts: name === "multi-turn" ? [...MULTI_TURN_PROMPTS] : [SCENARIO_PROMPTS[name]] },
    ]),
  );
}
