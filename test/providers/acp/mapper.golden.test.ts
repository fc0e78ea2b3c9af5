import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { replayTranscript } from "../../../src/kit/replay.js";
import { acpDefinition, cursorAcpDefinition } from "../../../src/providers/acp/definition.js";
import { verifyEvents } from "../../../src/verify/index.js";
import {
  ACP_FIXTURE_DIR,
  acpFixtureNames,
  acpSemanticProblems,
  isCursorFixture,
  readFixtureLines,
} from "./fixture-replay.js";

const fixtures = acpFixtureNames();

describe("ACP fixtures (recorded from real agents, replayed)", () => {
  it("has fixtures from both npm agents and the hand-written Cursor case", () => {
    expect(fixtures.filter((name) => name.startsWith("claude-agent-acp-")).length).toBeGreaterThanOrEqual(7);
    expect(fixtures.filter((name) => name.startsWith("codex-acp-")).length).toBeGreaterThanOrEqual(7);
    expect(fixtures.some((name) => name.startsWith("cursor-hand-written"))).toBe(true);
  });

  for (const name of fixtures) {
    const definition = isCursorFixture(name) ? cursorAcpDefinition : acpDefinition;
    const lines = readFixtureLines(name);

    it(`${name}: golden replay, byte-identical twice`, () => {
      const first = replayTranscript(definition, lines, "fixture")
        .map((event) => JSON.stringify(event))
        .join("\n");
      const second = replayTranscript(definition, lines, "fixture")
        .map((event) => JSON.stringify(event))
        .join("\n");
      expect(second).toBe(first);
      const expectedFile = join(ACP_FIXTURE_DIR, name.replace(/\.jsonl$/, ".expected.jsonl"));
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(expectedFile)) {
        writeFileSync(expectedFile, `${first}\n`);
      }
      expect(`${first}\n`).toBe(readFileSync(expectedFile, "utf8"));
    });

    it(`${name}: schema-valid, verify passes, sequence 1..n, ACP semantics hold`, () => {
      const events = replayTranscript(definition, lines, "fixture");
      for (const event of events) RuntimeEventSchema.parse(event);
      expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
      expect(verifyEvents(events)).toEqual([]);
      expect(acpSemanticProblems(lines, events)).toEqual([]);
      const opened = events
        .filter((event) => event.type === "request.opened")
        .map((event) => event.requestId);
      const resolved = events
        .filter((event) => event.type === "request.resolved")
        .map((event) => event.requestId);
      expect(resolved.sort()).toEqual(opened.sort());
      const started = events.filter((event) => event.type === "turn.started").length;
      expect(events.filter((event) => event.type === "turn.completed").length).toBe(started);
      for (const event of events) {
        if (event.type !== "provider.event" && event.type !== "session.exited")
          expect(event.raw).toBeDefined();
      }
      const expectedSource = isCursorFixture(name) ? /^cursor\.acp\./ : /^acp\./;
      for (const event of events)
        if (event.raw !== undefined) expect(event.raw.source).toMatch(expectedSource);
    });
  }
});

describe("what the recordings show", () => {
  const replay = (name: string) => replayTranscript(acpDefinition, readFixtureLines(name), "fixture");

  it.each(["claude-agent-acp", "codex-acp"])(
    "%s shell-accepted: approval accepted, command item completed with output",
    (agent) => {
      const events = replay(`${agent}-shell-accepted.jsonl`);
      const resolved = events.find((event) => event.type === "request.resolved");
      expect(resolved?.payload).toMatchObject({
        requestType: "command_execution_approval",
        decision: "accept",
      });
      const completed = events.find(
        (event) => event.type === "item.completed" && event.payload.itemType === "command_execution",
      );
      const output = events
        .filter(
          (event) =>
            event.type === "content.delta" &&
            event.payload.streamKind === "command_output" &&
            event.itemId === completed?.itemId,
        )
        .map((event) => (event.type === "content.delta" ? event.payload.delta : ""))
        .join("");
      expect(output).toContain("mock-shell-output");
      expect(events.findLast((event) => event.type === "turn.completed")?.payload).toMatchObject({
        state: "completed",
      });
      // The turn's end returns the session to ready and the thread to idle (the kit's state semantics).
      expect(events.slice(-2).map((event) => event.payload)).toEqual([{ state: "ready" }, { state: "idle" }]);
    },
  );

  it.each(["claude-agent-acp", "codex-acp"])("%s shell-declined: the decision is decline", (agent) => {
    const events = replay(`${agent}-shell-declined.jsonl`);
    expect(events.find((event) => event.type === "request.resolved")?.payload).toMatchObject({
      decision: "decline",
    });
  });

  it.each(["claude-agent-acp", "codex-acp"])(
    "%s reasoning: thought chunks become reasoning deltas",
    (agent) => {
      const events = replay(`${agent}-reasoning.jsonl`);
      const reasoning = events.filter(
        (event) => event.type === "content.delta" && event.payload.streamKind === "reasoning_text",
      );
      expect(reasoning.length).toBeGreaterThan(0);
    },
  );

  // Neither maintained adapter offers the model a plan tool here (see the conformance table): no plan.
  it.each(["claude-agent-acp", "codex-acp"])("%s plan: no plan tool, so no turn.plan.updated", (agent) => {
    const events = replay(`${agent}-plan.jsonl`);
    expect(events.some((event) => event.type === "turn.plan.updated")).toBe(false);
  });

  it.each(["claude-agent-acp", "codex-acp"])(
    "%s error-500: runtime.error with a class, the turn failed, no error text as the answer",
    (agent) => {
      const events = replay(`${agent}-error-500.jsonl`);
      const error = events.find((event) => event.type === "runtime.error");
      expect(error?.payload).toMatchObject({ class: "provider_error" });
      expect(events.findLast((event) => event.type === "turn.completed")?.payload).toMatchObject({
        state: "failed",
      });
      if (agent === "codex-acp") {
        const answer = events.filter(
          (event) => event.type === "content.delta" && event.payload.streamKind === "assistant_text",
        );
        expect(answer).toEqual([]);
      } else {
        expect(error?.payload.detail).toMatchObject({ errorKind: "server_error" });
      }
    },
  );

  it.each(["claude-agent-acp", "codex-acp"])("%s: _auth/status_update is auth.status", (agent) => {
    const events = replay(`${agent}-text.jsonl`);
    expect(events.some((event) => event.type === "auth.status")).toBe(true);
    expect(
      events.filter(
        (event) => event.type === "runtime.warning" && JSON.stringify(event.payload).includes("unknown-kind"),
      ),
    ).toEqual([]);
  });

  it.each(["claude-agent-acp", "codex-acp"])("%s edit: a file_change item", (agent) => {
    const events = replay(`${agent}-edit.jsonl`);
    expect(
      events.some((event) => event.type === "item.completed" && event.payload.itemType === "file_change"),
    ).toBe(true);
  });
});

describe("hand-written Cursor case (Cursor's CLI cannot be installed here)", () => {
  const lines = readFixtureLines("cursor-hand-written-extensions.jsonl");
  const events = replayTranscript(cursorAcpDefinition, lines, "fixture");

  it("de-duplicates the double tool_call announcement, keeps the item type, reports the decline", () => {
    const tool = events.filter(
      (event) =>
        event.itemId !== undefined &&
        event.type.startsWith("item.") &&
        "itemType" in event.payload &&
        event.payload.itemType === "command_execution",
    );
    expect(tool.map((event) => event.type)).toEqual(["item.started", "item.updated", "item.completed"]);
    expect(new Set(tool.map((event) => event.itemId)).size).toBe(1);
    expect(
      events.find(
        (event) =>
          event.type === "request.resolved" && event.payload.requestType === "command_execution_approval",
      )?.payload,
    ).toMatchObject({ decision: "decline" });
  });

  it("maps cursor/* extensions: todos → plan, ask_question → user input, task → linked task", () => {
    expect(events.find((event) => event.type === "turn.plan.updated")?.payload).toEqual({
      plan: [
        { step: "list files", status: "inProgress" },
        { step: "report", status: "pending" },
      ],
    });
    expect(events.find((event) => event.type === "user-input.resolved")?.payload).toEqual({
      answers: { q1: "a" },
    });
    const task = events.find((event) => event.type === "task.started");
    const toolItem = events.find(
      (event) => event.type === "item.started" && event.payload.itemType === "command_execution",
    );
    expect(task?.parentItemId).toBe(toolItem?.itemId);
  });

  it("the -32601 answer to session/cancel is a warning; an unknown session fails its turn", () => {
    expect(events.find((event) => event.type === "runtime.warning")?.payload.message).toMatch(
      /session\/cancel/,
    );
    expect(events.filter((event) => event.type === "turn.completed").map((event) => event.payload)).toEqual([
      { state: "completed", stopReason: "end_turn" },
      { state: "failed", errorMessage: "Session not found" },
    ]);
    expect(
      events.some((event) => event.type === "runtime.error" && event.payload.class === "provider_error"),
    ).toBe(true);
  });

  it("the same records through the generic profile: acp.* tags, cursor/* methods are unknown kinds", () => {
    const generic = replayTranscript(acpDefinition, lines, "fixture");
    expect(generic.every((event) => event.provider === "acp")).toBe(true);
    const unknown = generic.filter(
      (event) => event.type === "runtime.warning" && JSON.stringify(event.payload).includes("unknown-kind"),
    );
    expect(unknown.length).toBe(4);
  });
});
