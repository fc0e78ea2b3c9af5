import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { REPLAY_EPOCH } from "../../../src/kit/mapper.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { claudeCodeDefinition } from "../../../src/providers/claude-code/definition.js";
import { verifyEvents } from "../../../src/verify/index.js";
import {
  goldenFile,
  liveTranscript,
  normalizeFile,
  RECORDED_SCENARIOS,
  sessionFile,
} from "../../claude-code/recordings.js";
import {
  assistantDeltas,
  parseEvents,
  sessionFacts,
  turnItems,
  warningReasons,
} from "../../claude-code/session-facts.js";

/** The approvals and questions of a stream: each request's events in order, with type and decision. */
const requestFlow = (events: RuntimeEvent[]) =>
  events.flatMap((e) => {
    if (e.type === "request.opened") return [`opened:${e.payload.requestType}:${e.payload.detail}`];
    if (e.type === "request.resolved") return [`resolved:${e.payload.decision}`];
    if (e.type === "user-input.requested") return [`asked:${JSON.stringify(e.payload.questions)}`];
    if (e.type === "user-input.resolved") return [`answered:${JSON.stringify(e.payload.answers)}`];
    return [];
  });

const REAL_FILE = "/work/shared/fixtures/real/claude-code-session-2.1.38-spotter.jsonl";

/** The done-when checks of a normalized session file against what the file says by itself. */
async function expectFaithful(path: string, events: RuntimeEvent[]): Promise<void> {
  const facts = await sessionFacts(path);
  expect(verifyEvents(events)).toEqual([]);
  // known kinds never warn; an API retry the file records is the only warning a recorded file has
  expect(warningReasons(events).filter((reason) => reason !== "api-retry")).toEqual([]);
  for (const event of events) expect(facts.times).toContain(event.createdAt);
  expect(events.some((event) => event.createdAt === REPLAY_EPOCH)).toBe(false);
  const turns = events.filter((event) => event.type === "turn.started");
  expect(turns).toHaveLength(facts.prompts.length);
  expect(events.filter((event) => event.type === "turn.completed")).toHaveLength(facts.prompts.length);
  const prompts = events.flatMap((event) =>
    event.type === "item.completed" &&
    event.payload.itemType === "user_message" &&
    event.parentItemId === undefined
      ? [event]
      : [],
  );
  expect(prompts).toHaveLength(facts.prompts.length);
  expect(assistantDeltas(events)).toBe(facts.assistantText);
}

describe("claude-code: recorded session files (real Claude Code against the mock)", () => {
  describe.each(RECORDED_SCENARIOS)("%s", (name) => {
    it("matches its golden, and a second run is byte-identical", async () => {
      const lines = await normalizeFile("claude-code", sessionFile(name), `claude-code-${name}`);
      const again = await normalizeFile("claude-code", sessionFile(name), `claude-code-${name}`);
      expect(again).toEqual(lines);
      expect(`${lines.join("\n")}\n`).toBe(readFileSync(goldenFile(name), "utf8"));
    });

    it("passes verify, takes each event's time from the records, one turn per prompt, the file's text", async () => {
      const events = parseEvents(await normalizeFile("claude-code", sessionFile(name), "s"));
      await expectFaithful(sessionFile(name), events);
    });

    it("agrees with the live stream of the same run on turns, items (with details) and text", async () => {
      const file = parseEvents(await normalizeFile("claude-code", sessionFile(name), "s"));
      const live = parseEvents(await normalizeFile("claude-sdk", liveTranscript(name), "s"));
      expect(turnItems(file)).toEqual(turnItems(live));
      expect(requestFlow(file)).toEqual(requestFlow(live));
      expect(assistantDeltas(file)).toBe(assistantDeltas(live));
      expect(turnItems(file).length).toBeGreaterThan(0);
    });
  });

  it("the subagent's records link to the Agent call that spawned it", async () => {
    const events = parseEvents(await normalizeFile("claude-code", sessionFile("subagent"), "s"));
    const agent = events.find(
      (e) => e.type === "item.started" && e.payload.itemType === "collab_agent_tool_call",
    );
    const linked = events.filter((e) => e.parentItemId !== undefined);
    expect(agent?.itemId).toBeDefined();
    expect(linked.length).toBeGreaterThan(0);
    for (const event of linked) expect(event.parentItemId).toBe(agent?.itemId);
    expect(assistantDeltas(linked)).toBe("mock subagent answer");
  });

  it("an approval the user gave and one refused: request opened and resolved, the refused call declined", async () => {
    const approved = parseEvents(await normalizeFile("claude-code", sessionFile("shell"), "s"));
    const refused = parseEvents(await normalizeFile("claude-code", sessionFile("shell-decline"), "s"));
    const decisions = (events: RuntimeEvent[]) =>
      events.flatMap((e) => (e.type === "request.resolved" ? [e.payload.decision] : []));
    expect(decisions(approved)).toEqual(["accept"]);
    expect(decisions(refused)).toEqual(["decline"]);
    const shell = refused.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(shell?.type === "item.completed" ? shell.payload.status : undefined).toBe("declined");
  });

  it("a file that grew: its new part mapped alone gets the same turn and item ids as in the whole file", async () => {
    const lines = readFileSync(sessionFile("multi-turn"), "utf8").split("\n").filter(Boolean);
    const second = lines.findLastIndex((line) => /"type":"user".*"content":"mock:/.test(line));
    expect(second).toBeGreaterThan(0);
    const map = (part: string[], sequenceAfter = 0) => {
      const mapper = claudeCodeDefinition.create({ sessionId: "s", sequenceAfter });
      const events = part.flatMap((line) => {
        const entry = parseTranscriptLine(line);
        return entry === undefined ? [] : mapper.map(entry);
      });
      return [...events, ...mapper.finish()];
    };
    const whole = map(lines);
    const before = map(lines.slice(0, second));
    const grown = map(lines.slice(second), before.length);
    const ids = (events: RuntimeEvent[], type: RuntimeEvent["type"]) => [
      ...new Set(events.filter((e) => e.type === type).map((e) => e.turnId ?? e.itemId)),
    ];
    expect([...ids(before, "turn.started"), ...ids(grown, "turn.started")]).toEqual(
      ids(whole, "turn.started"),
    );
    const lastTurn = ids(whole, "turn.started").at(-1);
    const itemsOf = (events: RuntimeEvent[]) =>
      events.filter((e) => e.type === "item.completed" && e.turnId === lastTurn).map((e) => e.itemId);
    expect(itemsOf(grown)).toEqual(itemsOf(whole));
    expect(grown[0]?.sequence).toBe(before.length + 1);
    expect(verifyEvents([...before, ...grown])).toEqual([]);
  });

  it("an API error ends the turn failed, with its message", async () => {
    const events = parseEvents(await normalizeFile("claude-code", sessionFile("error-500"), "s"));
    const end = events.find((e) => e.type === "turn.completed");
    expect(end?.type === "turn.completed" ? end.payload.state : undefined).toBe("failed");
    expect(events.some((e) => e.type === "runtime.error")).toBe(true);
  });
});

describe.skipIf(!existsSync(REAL_FILE))(
  "claude-code: a real 2.1.38 session file (read in place, not copied)",
  () => {
    it("passes verify, times from the records, one turn per prompt, the file's assistant text", async () => {
      const events = parseEvents(await normalizeFile("claude-code", REAL_FILE, "real"));
      await expectFaithful(REAL_FILE, events);
    });

    it("turns are the prompts as typed (the slash command too); both interrupted turns end interrupted", async () => {
      const events = parseEvents(await normalizeFile("claude-code", REAL_FILE, "real"));
      const prompts = events.flatMap((e) =>
        e.type === "item.completed" && e.payload.itemType === "user_message" ? [e.payload.details?.text] : [],
      );
      expect(prompts).toEqual([
        "start phoenix in background",
        "/mcp",
        expect.stringMatching(/^scrolling back in xterm\.js/),
      ]);
      const ends = events.flatMap((e) => (e.type === "turn.completed" ? [e.payload.state] : []));
      expect(ends).toEqual(["interrupted", "completed", "interrupted"]);
      const kinds = new Set(events.map((e) => (e.type === "provider.event" ? e.payload.name : e.type)));
      for (const kind of ["file-history-snapshot", "queue-operation", "system:local_command", "hook.started"])
        expect(kinds).toContain(kind);
      const thinking = events.find((e) => e.type === "item.completed" && e.payload.itemType === "reasoning");
      expect(thinking).toBeDefined();
    });
  },
);
