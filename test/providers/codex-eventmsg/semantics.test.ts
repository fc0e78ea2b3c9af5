import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import type { MapperDefinition } from "../../../src/kit/mapper.js";
import {
  codexEventMsgDefinition,
  codexRolloutDefinition,
} from "../../../src/providers/codex-eventmsg/definition.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { EVENTMSG_FIXTURES, fixtureNames, ROLLOUT_FIXTURES, readLines, replay } from "./replay.js";

/** Lifecycle checks every fixture's stream must pass, whatever the scenario. */
function checkStream(events: RuntimeEvent[]): string[] {
  const problems: string[] = [];
  const turns = new Map<string, number>();
  const requests = new Map<string, number>();
  const completedItems = new Set<string>();
  const startedItems = new Set<string>();
  events.forEach((event, index) => {
    if (!RuntimeEventSchema.safeParse(event).success) problems.push(`invalid event ${index + 1}`);
    if (event.sequence !== index + 1) problems.push(`sequence ${event.sequence} at ${index + 1}`);
    if (event.raw === undefined) problems.push(`no raw on ${event.type} #${event.sequence}`);
    if (event.type === "turn.started" && event.turnId)
      turns.set(event.turnId, (turns.get(event.turnId) ?? 0) + 1);
    if (event.type === "turn.completed" && event.turnId) {
      if (turns.get(event.turnId) !== 1) problems.push(`turn.completed for a turn not open: ${event.turnId}`);
      turns.set(event.turnId, 2);
    }
    if (event.turnId && !turns.has(event.turnId))
      problems.push(`turn referenced before it started: ${event.type}`);
    if (event.type === "request.opened" && event.requestId) requests.set(event.requestId, 1);
    if (event.type === "request.resolved" && event.requestId) {
      if (requests.get(event.requestId) !== 1)
        problems.push(`request resolved while not open: ${event.requestId}`);
      requests.set(event.requestId, 2);
    }
    if (event.type === "item.started" && event.itemId) {
      if (startedItems.has(event.itemId)) problems.push(`item started twice: ${event.itemId}`);
      startedItems.add(event.itemId);
    }
    if ((event.type === "content.delta" || event.type === "item.updated") && event.itemId) {
      if (completedItems.has(event.itemId))
        problems.push(`${event.type} after item.completed: ${event.itemId}`);
    }
    if (event.type === "item.completed" && event.itemId) {
      if (!startedItems.has(event.itemId)) problems.push(`item completed without start: ${event.itemId}`);
      if (completedItems.has(event.itemId)) problems.push(`item completed twice: ${event.itemId}`);
      completedItems.add(event.itemId);
    }
  });
  for (const [turnId, state] of turns) if (state !== 2) problems.push(`turn left open: ${turnId}`);
  for (const [requestId, state] of requests)
    if (state !== 2) problems.push(`request left open: ${requestId}`);
  for (const itemId of startedItems)
    if (!completedItems.has(itemId)) problems.push(`item left open: ${itemId}`);
  return problems;
}

function assistantText(events: RuntimeEvent[]): string {
  return events
    .filter((event) => event.type === "content.delta" && event.payload.streamKind === "assistant_text")
    .map((event) => (event.type === "content.delta" ? event.payload.delta : ""))
    .join("");
}

function nativeIds(lines: string[]): Set<string> {
  const ids = new Set<string>();
  const visit = (value: unknown, key?: string): void => {
    if (typeof value === "string" && key !== undefined && /(^|_)id$|Id$/.test(key) && value.length > 0)
      ids.add(value);
    else if (Array.isArray(value)) for (const entry of value) visit(entry);
    else if (value !== null && typeof value === "object")
      for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  for (const line of lines) visit(JSON.parse(line));
  return ids;
}

const SUITES: [MapperDefinition, string][] = [
  [codexRolloutDefinition, ROLLOUT_FIXTURES],
  [codexEventMsgDefinition, EVENTMSG_FIXTURES],
];

for (const [definition, dir] of SUITES) {
  describe(`${definition.source} fixtures: stream semantics`, () => {
    for (const name of fixtureNames(dir)) {
      const lines = readLines(join(dir, `${name}.jsonl`));
      const events = replay(definition, lines);

      it(`${name}: schema-valid, ordered, every turn/request/item opened once and closed once`, () => {
        expect(checkStream(events)).toEqual([]);
      });

      it(`${name}: verify passes (state semantics: ready after every turn, idle threads, waiting only on requests)`, () => {
        expect(verifyEvents(events)).toEqual([]);
      });

      it(`${name}: no native id is used as a canonical id`, () => {
        const native = nativeIds(lines);
        for (const event of events) {
          for (const id of [event.threadId, event.turnId, event.itemId, event.requestId]) {
            if (id !== undefined) expect(native.has(id), `${event.type} uses native id ${id}`).toBe(false);
          }
        }
      });

      it(`${name}: warnings only for truly unknown kinds`, () => {
        const warnings = events.filter((event) => event.type === "runtime.warning");
        const expected = name.startsWith("hand-written")
          ? warnings.filter((w) => w.payload.message.includes("some_future_event"))
          : [];
        expect(warnings).toEqual(expected);
      });
    }
  });
}

describe("codex-rollout: the rollout matches the live run", () => {
  for (const name of fixtureNames(ROLLOUT_FIXTURES).filter((n) => !n.startsWith("hand-written"))) {
    it(`${name}: assistant text = the exec run's agent_message text`, () => {
      const exec = readLines(join(ROLLOUT_FIXTURES, `${name}.exec.jsonl`)).map((line) => JSON.parse(line));
      const live = exec
        .filter((event) => event.type === "item.completed" && event.item?.type === "agent_message")
        .map((event) => event.item.text as string)
        .join("");
      const events = replay(codexRolloutDefinition, readLines(join(ROLLOUT_FIXTURES, `${name}.jsonl`)));
      expect(assistantText(events)).toBe(live);
      if (name !== "error-500") expect(live.length).toBeGreaterThan(0);
    });

    it(`${name}: one item per native tool call, each completed`, () => {
      const lines = readLines(join(ROLLOUT_FIXTURES, `${name}.jsonl`)).map((line) => JSON.parse(line));
      const calls = lines.filter(
        (line) =>
          line.type === "response_item" && ["function_call", "custom_tool_call"].includes(line.payload?.type),
      ).length;
      const events = replay(codexRolloutDefinition, readLines(join(ROLLOUT_FIXTURES, `${name}.jsonl`)));
      const toolTypes = new Set(["command_execution", "file_change", "dynamic_tool_call", "mcp_tool_call"]);
      const started = events.filter((e) => e.type === "item.started" && toolTypes.has(e.payload.itemType));
      expect(started.length).toBe(calls);
    });
  }

  it("the eventmsg transcripts derived from rollouts give the same assistant text", () => {
    for (const name of fixtureNames(ROLLOUT_FIXTURES).filter((n) => !n.startsWith("hand-written"))) {
      const fromRollout = assistantText(
        replay(codexRolloutDefinition, readLines(join(ROLLOUT_FIXTURES, `${name}.jsonl`))),
      );
      const fromEventMsg = assistantText(
        replay(codexEventMsgDefinition, readLines(join(EVENTMSG_FIXTURES, `${name}.jsonl`))),
      );
      expect(fromEventMsg, name).toBe(fromRollout);
    }
  });

  it("shell: the command's output is in the stream", () => {
    const events = replay(codexRolloutDefinition, readLines(join(ROLLOUT_FIXTURES, "shell.jsonl")));
    const output = events
      .filter((e) => e.type === "content.delta" && e.payload.streamKind === "command_output")
      .map((e) => (e.type === "content.delta" ? e.payload.delta : ""))
      .join("");
    expect(output).toContain("mock-shell-output");
    const completed = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(completed?.type === "item.completed" && completed.payload.status).toBe("completed");
  });

  it("error-500: the turn ends failed with a runtime.error before it", () => {
    const events = replay(codexRolloutDefinition, readLines(join(ROLLOUT_FIXTURES, "error-500.jsonl")));
    const types = events.map((e) => e.type);
    expect(types).toContain("runtime.error");
    const end = events.find((e) => e.type === "turn.completed");
    expect(end?.type === "turn.completed" && end.payload.state).toBe("failed");
  });

  it("multi-turn: two turns, each completed, in one thread", () => {
    const events = replay(codexRolloutDefinition, readLines(join(ROLLOUT_FIXTURES, "multi-turn.jsonl")));
    expect(events.filter((e) => e.type === "turn.started")).toHaveLength(2);
    expect(events.filter((e) => e.type === "turn.completed")).toHaveLength(2);
    expect(new Set(events.map((e) => e.threadId).filter(Boolean)).size).toBe(1);
  });

  it("timestamps come from the rollout lines", () => {
    const lines = readLines(join(ROLLOUT_FIXTURES, "text.jsonl"));
    const stamps = new Set(lines.map((line) => JSON.parse(line).timestamp as string));
    for (const event of replay(codexRolloutDefinition, lines)) expect(stamps.has(event.createdAt)).toBe(true);
  });
});
