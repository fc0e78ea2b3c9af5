import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { replayTranscript } from "../../../src/kit/replay.js";
import { acpDefinition } from "../../../src/providers/acp/definition.js";
import { elicitationContent, elicitationResult } from "../../../src/providers/acp/elicitation-answers.js";
import { readFixtureLines } from "./fixture-replay.js";

/**
 * What the capabilities declared in `initialize` unlock, on fixtures recorded from the real agents
 * (scripts/record-acp.ts): questions as form elicitations answered with typed content, subagent sessions as items
 * linked by parentItemId; and the two native agents' shell and edit details.
 */

const replay = (name: string): RuntimeEvent[] => replayTranscript(acpDefinition, readFixtureLines(name), "q");
const of = <T extends RuntimeEvent["type"]>(events: readonly RuntimeEvent[], type: T) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);

describe("questions (elicitation/create from the agent's own question tool)", () => {
  for (const [agent, field] of [
    ["claude-agent-acp", "question_0"],
    ["codex-acp", "mock_colour"],
  ] as const) {
    it(`${agent}: tool_user_input with the form, resolved by the host's answer as the form's content`, () => {
      const events = replay(`${agent}-question.jsonl`);
      const opened = of(events, "request.opened");
      expect(opened.map((e) => e.payload.requestType)).toEqual(["tool_user_input"]);
      const asked = of(events, "user-input.requested");
      expect(asked.map((e) => e.requestId)).toEqual(opened.map((e) => e.requestId));
      expect(JSON.stringify(asked[0]?.payload.questions)).toContain(field);
      const answered = of(events, "user-input.resolved");
      expect(answered[0]?.payload.answers).toEqual({ [field]: "Blue (Recommended)" });
      expect(of(events, "request.resolved")[0]?.payload.decision).toBe("accept");
    });
  }
});

describe("subagents (subagent_update, session_message and the child session's own updates)", () => {
  for (const agent of ["claude-agent-acp", "codex-acp"]) {
    it(`${agent}: one collab_agent_tool_call item with the prompt; the task and the child's items link to it`, () => {
      const events = replay(`${agent}-subagent.jsonl`);
      const spawners = of(events, "item.completed").filter(
        (e) => e.payload.itemType === "collab_agent_tool_call",
      );
      expect(spawners).toHaveLength(1);
      const spawner = spawners[0];
      const details =
        spawner?.payload.itemType === "collab_agent_tool_call" ? spawner.payload.details : undefined;
      expect(details?.prompt).toContain("mock subagent task");
      expect(spawner?.payload.status).toBe("completed");
      const tasks = of(events, "task.started");
      expect(tasks.map((e) => e.parentItemId)).toEqual([spawner?.itemId]);
      expect(of(events, "task.completed").map((e) => e.payload.status)).toEqual(["completed"]);
      const children = of(events, "item.started").filter((e) => e.parentItemId === spawner?.itemId);
      expect(children.map((e) => e.payload.itemType)).toContain("assistant_message");
      // the child's text is not the main agent's answer
      const mainText = of(events, "item.started").filter(
        (e) => e.payload.itemType === "assistant_message" && e.parentItemId === undefined,
      );
      expect(mainText.length).toBeGreaterThan(0);
    });
  }
});

describe("OpenCode and GitHub Copilot CLI: shell and edit details", () => {
  for (const agent of ["opencode", "copilot"]) {
    it(`${agent}: the command with exit code 0, and the created file as an add with its diff`, () => {
      const shell = of(replay(`${agent}-shell-accepted.jsonl`), "item.completed").find(
        (e) => e.payload.itemType === "command_execution",
      );
      const command = shell?.payload.itemType === "command_execution" ? shell.payload.details : undefined;
      expect(command).toMatchObject({ command: "echo mock-shell-output | tee /dev/null", exitCode: 0 });
      const edit = of(replay(`${agent}-edit.jsonl`), "item.completed").find(
        (e) => e.payload.itemType === "file_change",
      );
      const changes = edit?.payload.itemType === "file_change" ? edit.payload.details?.changes : undefined;
      expect(changes).toHaveLength(1);
      expect(changes?.[0]).toMatchObject({ kind: "add" });
      expect(changes?.[0]?.path).toMatch(/mock-edit\.txt$/);
      expect(changes?.[0]?.diff).toContain("+written by the mock model");
    });
  }
});

describe("an elicitation's answer", () => {
  const params = {
    mode: "form",
    requestedSchema: {
      type: "object",
      properties: {
        colour: { type: "string", oneOf: [{ const: "blue" }, { const: "green" }] },
        count: { type: "integer" },
        sure: { type: "boolean" },
        tags: { type: "array", items: { type: "string" } },
      },
    },
  };

  it("converts string answers to each field's JSON type and leaves out fields the form does not have", () => {
    const content = elicitationContent(params, {
      decision: "accept",
      answers: { colour: "blue", count: "3", sure: "yes", tags: ["a", "b"], other: "x" },
    });
    expect(content).toEqual({ colour: "blue", count: 3, sure: true, tags: ["a", "b"] });
  });

  it("takes the host's typed content as it is; decline and cancel carry no content; a URL form has none", () => {
    const typed = { colour: "green", count: 7 };
    expect(elicitationResult(params, { decision: "accept", payload: { content: typed } })).toEqual({
      action: "accept",
      content: typed,
    });
    expect(elicitationResult(params, { decision: "decline" })).toEqual({ action: "decline" });
    expect(elicitationResult(params, { decision: "cancel" })).toEqual({ action: "cancel" });
    expect(elicitationResult({ mode: "url", url: "https://x" }, { decision: "accept" })).toEqual({
      action: "accept",
    });
  });
});
