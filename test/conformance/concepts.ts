import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import {
  EDIT_FILE_CONTENT,
  EDIT_FILE_NAME,
  SCENARIO_PROMPTS,
  SHELL_COMMAND,
  SHELL_MARKER_OUTPUT,
} from "../../src/mock-model/index.js";
import { verifyEvents } from "../../src/verify/index.js";
import { CONTROL_CONCEPTS, type ControlConcept } from "./control-concepts.js";
import { assistantDeltas, type ScenarioRun, type ScenarioScript } from "./harness.js";

export const BASE_CONCEPTS = [
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
export type BaseConcept = (typeof BASE_CONCEPTS)[number];
/** Every row of the table: the event model's concepts, then the command surface's (control-concepts.ts). */
export const CONCEPTS = [...BASE_CONCEPTS, ...CONTROL_CONCEPTS] as const;
export type Concept = (typeof CONCEPTS)[number];

export function isControlConcept(concept: Concept): concept is ControlConcept {
  return (CONTROL_CONCEPTS as readonly string[]).includes(concept);
}

/** What a provider can express: checked when supported, checked ABSENT (with the reason) when not. */
export type Support =
  | {
      supported: true;
      note?: string;
      withoutApproval?: boolean;
      /** The program may not report a tool's end: the item then fails at turn end, without output. */
      toolEndMayBeMissing?: boolean;
      /** Detail fields the provider does not report for this concept, each with the reason: asserted absent. */
      absent?: Partial<Record<"exitCode" | "diff", string>>;
    }
  | { supported: false; why: string };

export const SCRIPTS: Record<BaseConcept, ScenarioScript> = {
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
  // DESIGN §2 state semantics: after every turn the session is ready and the thread idle (verify checks the order)
  expect(sessionStates(run).at(-1)).toBe("ready");
}

/**
 * The session states from the first turn on, consecutive repeats collapsed, the exit's stopped/error left off:
 * the same sequence for every provider for the same scenario.
 */
export function sessionStates(run: ScenarioRun): string[] {
  const first = run.events.findIndex((e) => e.type === "turn.started");
  const states: string[] = [];
  for (const event of run.events.slice(first)) {
    if (event.type !== "session.state.changed") continue;
    const state = event.payload.state;
    if (state === "stopped" || state === "error") continue;
    if (states.at(-1) !== state) states.push(state);
  }
  return states;
}

const completedItems = (run: ScenarioRun, itemType: string) =>
  run.view.items.filter((item) => item.itemType === itemType && item.status !== "inProgress");

export const CHECKS: Record<BaseConcept, (run: ScenarioRun, support: Support) => void> = {
  text(run) {
    expect(assistantDeltas(run.events)).toContain("mock final answer: text");
    expect(run.view.turns.map((t) => t.state)).toEqual(["completed"]);
    expect(sessionStates(run)).toEqual(["running", "ready"]);
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
    // the same place for every provider: the command as the agent wrote it (no shell wrapper) in details and
    // title, the output as command_output deltas, the exit code where the provider reports one
    expect(item?.title).toBe(SHELL_COMMAND);
    const details = item?.itemType === "command_execution" ? item.details : undefined;
    expect(details).toMatchObject({ command: SHELL_COMMAND });
    const absent = support.supported ? support.absent : undefined;
    if (absent?.exitCode !== undefined || item?.status === "failed")
      expect(details).not.toHaveProperty("exitCode");
    else expect(details).toHaveProperty("exitCode", 0);
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
      expect(sessionStates(run)).toEqual(["running", "waiting", "running", "ready"]);
    } else {
      expect(approvals).toEqual([]);
      expect(sessionStates(run)).toEqual(["running", "ready"]);
    }
  },
  "file edit"(run, support) {
    const edits = completedItems(run, "file_change");
    expect(edits.length).toBeGreaterThanOrEqual(1);
    expect(existsSync(join(run.cwd, EDIT_FILE_NAME))).toBe(true);
    // the same path and kind for every provider: the mock's edit creates the file
    const changes = edits.flatMap((item) =>
      item.itemType === "file_change" ? (item.details?.changes ?? []) : [],
    );
    const change = changes.find((c) => c.path.endsWith(EDIT_FILE_NAME));
    expect(change).toMatchObject({ kind: "add" });
    const absent = support.supported ? support.absent : undefined;
    if (absent?.diff !== undefined) expect(change).not.toHaveProperty("diff");
    else expect(change?.diff).toContain(`+${EDIT_FILE_CONTENT}`);
    expect(sessionStates(run)[0]).toBe("running");
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
    const spawner = spawners[0];
    const details = spawner?.itemType === "collab_agent_tool_call" ? spawner.details : undefined;
    expect(details?.prompt?.length ?? 0).toBeGreaterThan(0);
    const parents = new Set(spawners.map((item) => item.itemId));
    expect(
      run.view.items.some((item) => item.parentItemId !== undefined && parents.has(item.parentItemId)),
    ).toBe(true);
  },
  "model error"(run, support) {
    if (!support.supported) {
      // the agent tells the failure only in its answer text and ends the turn normally
      expect(of(run.events, "runtime.error")).toEqual([]);
      expect(run.view.turns.at(-1)?.state).toBe("completed");
      return;
    }
    expect(of(run.events, "runtime.error").length).toBeGreaterThanOrEqual(1);
    expect(run.view.turns.at(-1)?.state).toBe("failed");
  },
  "multi-turn"(run) {
    expect(run.view.turns.map((t) => t.state)).toEqual(["completed", "completed"]);
    expect(sessionStates(run)).toEqual(["running", "ready", "running", "ready"]);
    const turnEvents = run.events.filter((e) => e.type.startsWith("turn.") && e.threadId !== undefined);
    expect(new Set(turnEvents.map((e) => e.threadId)).size).toBe(1);
  },
  interrupt(run) {
    const last = run.view.turns.at(-1);
    expect(["interrupted", "cancelled"]).toContain(last?.state);
  },
};
