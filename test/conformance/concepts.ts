import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { EDIT_FILE_NAME, SCENARIO_PROMPTS, SHELL_MARKER_OUTPUT } from "../../src/mock-model/index.js";
import { verifyEvents } from "../../src/verify/index.js";
import { assistantDeltas, type ScenarioRun, type ScenarioScript } from "./harness.js";

export const CONCEPTS = [
  "text",
  "reasoning",
  "shell with approval",
  "file edit",
  "plan",
  "question",
  "subagent",
  "model error",
  "multi-turn",
  "interrupt",
] as const;
export type Concept = (typeof CONCEPTS)[number];

/** What a provider can express: checked when supported, checked ABSENT (with the reason) when not. */
export type Support =
  | {
      supported: true;
      note?: string;
      withoutApproval?: boolean;
      /** The program may not report a tool's end: the item then fails at turn end, without output. */
      toolEndMayBeMissing?: boolean;
    }
  | { supported: false; why: string };

export const SCRIPTS: Record<Concept, ScenarioScript> = {
  text: { prompts: [SCENARIO_PROMPTS.text] },
  reasoning: { prompts: [SCENARIO_PROMPTS.reasoning] },
  "shell with approval": { prompts: [SCENARIO_PROMPTS.shell] },
  "file edit": { prompts: [SCENARIO_PROMPTS.edit] },
  plan: { prompts: [SCENARIO_PROMPTS.plan] },
  question: { prompts: [SCENARIO_PROMPTS.question] },
  subagent: { prompts: [SCENARIO_PROMPTS.subagent] },
  "model error": { prompts: [SCENARIO_PROMPTS["error-500"]] },
  "multi-turn": { prompts: ["mock:text first", "mock:text second"] },
  interrupt: { prompts: [SCENARIO_PROMPTS.long], interruptAfterFirstDelta: true },
};

const of = <T extends RuntimeEvent["type"]>(events: readonly RuntimeEvent[], type: T) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);

/** The rules every run obeys, whatever the provider and scenario (EVENTS.md §7, DESIGN.md §2). */
export function checkCommonRules(run: ScenarioRun): void {
  expect(verifyEvents(run.events).map((v) => v.message)).toEqual([]);
  const started = of(run.events, "turn.started");
  const ended = [...of(run.events, "turn.completed"), ...of(run.events, "turn.aborted")];
  expect(started.length).toBeGreaterThan(0);
  expect(ended.map((e) => e.turnId).sort()).toEqual(started.map((e) => e.turnId).sort());
  const opened = of(run.events, "request.opened").map((e) => e.requestId);
  expect(
    of(run.events, "request.resolved")
      .map((e) => e.requestId)
      .sort(),
  ).toEqual([...opened].sort());
  for (const error of of(run.events, "runtime.error")) expect(error.payload.class).toBeDefined();
  expect(run.events.at(-1)?.type).toBe("session.exited");
}

const completedItems = (run: ScenarioRun, itemType: string) =>
  run.view.items.filter((item) => item.itemType === itemType && item.status !== "inProgress");

export const CHECKS: Record<Concept, (run: ScenarioRun, support: Support) => void> = {
  text(run) {
    expect(assistantDeltas(run.events)).toContain("mock final answer: text");
    expect(run.view.turns.map((t) => t.state)).toEqual(["completed"]);
  },
  reasoning(run) {
    const reasoning = run.view.items.filter((item) => item.itemType === "reasoning");
    expect(reasoning.some((item) => item.text.length > 0)).toBe(true);
    expect(assistantDeltas(run.events)).toContain("mock final answer: reasoning");
  },
  "shell with approval"(run, support) {
    const commands = completedItems(run, "command_execution");
    expect(commands).toHaveLength(1);
    const item = commands[0];
    // the same place for every provider: the command line as the title, the output as command_output deltas
    expect(item?.title).toContain(`echo ${SHELL_MARKER_OUTPUT}`);
    if (support.supported && support.toolEndMayBeMissing && item?.status === "failed") {
      expect(item.detail).toMatch(/turn ended before the tool call did/);
    } else {
      expect(item?.output).toContain(SHELL_MARKER_OUTPUT);
    }
    expect(assistantDeltas(run.events)).toContain("mock final answer: shell");
    const approvals = run.view.requests.filter((r) => r.requestType.endsWith("approval"));
    if (support.supported && support.withoutApproval !== true) {
      expect(approvals).toHaveLength(1);
      expect(approvals[0]).toMatchObject({ status: "resolved", decision: "accept" });
    } else {
      expect(approvals).toEqual([]);
    }
  },
  "file edit"(run) {
    expect(completedItems(run, "file_change").length).toBeGreaterThanOrEqual(1);
    expect(existsSync(join(run.cwd, EDIT_FILE_NAME))).toBe(true);
  },
  plan(run, support) {
    const plans = of(run.events, "turn.plan.updated");
    if (support.supported) expect(plans.at(-1)?.payload.plan.length ?? 0).toBeGreaterThan(0);
    else expect(plans).toEqual([]);
  },
  question(run, support) {
    const asked = of(run.events, "user-input.requested");
    if (!support.supported) {
      expect(asked).toEqual([]);
      return;
    }
    expect(asked).toHaveLength(1);
    expect(of(run.events, "user-input.resolved").map((e) => e.requestId)).toEqual(
      asked.map((e) => e.requestId),
    );
  },
  subagent(run, support) {
    const spawners = run.view.items.filter((item) => item.itemType === "collab_agent_tool_call");
    if (!support.supported) {
      expect(spawners).toEqual([]);
      return;
    }
    expect(spawners.length).toBeGreaterThanOrEqual(1);
    const parents = new Set(spawners.map((item) => item.itemId));
    expect(
      run.view.items.some((item) => item.parentItemId !== undefined && parents.has(item.parentItemId)),
    ).toBe(true);
  },
  "model error"(run) {
    expect(of(run.events, "runtime.error").length).toBeGreaterThanOrEqual(1);
    expect(run.view.turns.at(-1)?.state).toBe("failed");
  },
  "multi-turn"(run) {
    expect(run.view.turns.map((t) => t.state)).toEqual(["completed", "completed"]);
    const turnEvents = run.events.filter((e) => e.type.startsWith("turn.") && e.threadId !== undefined);
    expect(new Set(turnEvents.map((e) => e.threadId)).size).toBe(1);
  },
  interrupt(run) {
    const last = run.view.turns.at(-1);
    expect(["interrupted", "cancelled"]).toContain(last?.state);
  },
};
