import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { completedTextByItem, deltaTextByItem, nativeFacts, stateContradictions } from "./fixture-checks.js";
import { replayCodexSdkTranscript } from "./replay.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/codex-sdk/", import.meta.url));
const SESSION = "ses_golden_codex_sdk";
const transcripts = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl"))
  .sort();

function toJsonl(events: readonly unknown[]): string {
  return `${events.map((event) => JSON.stringify(event)).join("\n")}\n`;
}

describe("codex-sdk fixtures", () => {
  it("has the recorded scenarios", () => {
    for (const name of ["text", "reasoning", "shell", "edit", "plan", "multi-turn", "error-500"]) {
      expect(transcripts).toContain(`${name}.jsonl`);
    }
  });

  describe.each(transcripts)("%s", (name) => {
    const transcript = readFileSync(join(FIXTURES, name), "utf8");
    const events = replayCodexSdkTranscript(transcript, SESSION);
    const facts = nativeFacts(transcript);

    it("matches its golden file, and a second replay is byte-identical", () => {
      const output = toJsonl(events);
      expect(toJsonl(replayCodexSdkTranscript(transcript, SESSION))).toBe(output);
      const expectedPath = join(FIXTURES, name.replace(/\.jsonl$/, ".expected.jsonl"));
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(expectedPath)) writeFileSync(expectedPath, output);
      expect(output).toBe(readFileSync(expectedPath, "utf8"));
    });

    it("is schema-valid, numbered 1..n, and passes verify", () => {
      events.forEach((event, index) => {
        RuntimeEventSchema.parse(event);
        expect(event.sequence).toBe(index + 1);
      });
      expect(verifyEvents(events)).toEqual([]);
      expect(stateContradictions(events)).toEqual([]);
    });

    it("has no warnings and raw on every event of a native record", () => {
      expect(events.filter((e) => e.type === "runtime.warning")).toEqual([]);
      const withNativeRaw = events.filter((e) => e.raw?.source === "codex.sdk.thread-event");
      expect(withNativeRaw.length).toBeGreaterThanOrEqual(facts.inbound);
    });

    it("starts one item per native item and streams its final text exactly", () => {
      const started = events.filter(
        (e) => e.type === "item.started" && e.payload.itemType !== "user_message",
      );
      expect(started.length).toBe(facts.itemKeys.size);
      expect(new Set(started.map((e) => e.itemId)).size).toBe(started.length);
      const deltas = deltaTextByItem(events);
      const finals = completedTextByItem(events);
      for (const [itemId, text] of finals) expect(deltas.get(itemId) ?? "").toBe(text);
      const nativeTexts = [...facts.finalText.values()].map((f) => f.text).filter((t) => t.length > 0);
      expect([...deltas.values()].sort()).toEqual(nativeTexts.sort());
    });

    it("opens no request, ends every turn once, and never uses a native id as a canonical id", () => {
      expect(events.some((e) => e.type === "request.opened")).toBe(false);
      const started = events.filter((e) => e.type === "turn.started").map((e) => e.turnId);
      const ended = events.filter((e) => e.type === "turn.completed").map((e) => e.turnId);
      expect(ended.sort()).toEqual(started.sort());
      for (const event of events) {
        for (const id of [event.threadId, event.turnId, event.itemId]) {
          if (id !== undefined) expect(facts.nativeIds.has(id)).toBe(false);
        }
      }
    });
  });
});

describe("codex-sdk scenario facts", () => {
  const load = (name: string) =>
    replayCodexSdkTranscript(readFileSync(join(FIXTURES, `${name}.jsonl`), "utf8"), SESSION);

  it("multi-turn: one thread, the repeated thread.started is a resume; active/idle per turn, ready after each", () => {
    const events = load("multi-turn");
    expect(events.filter((e) => e.type === "thread.started")).toHaveLength(1);
    const resumed = events.filter((e) => e.type === "provider.event");
    expect(resumed.map((e) => e.type === "provider.event" && e.payload.name)).toEqual(["thread.started"]);
    const threadStates = events.flatMap((e) => (e.type === "thread.state.changed" ? [e.payload.state] : []));
    expect(threadStates).toEqual(["active", "idle", "active", "idle"]);
    const sessionStates = events.flatMap((e) =>
      e.type === "session.state.changed" ? [e.payload.state] : [],
    );
    expect(sessionStates).toEqual(["ready", "running", "ready", "running", "ready"]);
    // The resume comes after the first turn's ready/idle and contradicts neither.
    const resumeAt = events.indexOf(resumed[0] as (typeof events)[number]);
    expect(events.slice(resumeAt + 1).findIndex((e) => e.type === "turn.started")).toBe(0);
    expect(new Set(events.map((e) => e.threadId).filter(Boolean)).size).toBe(1);
    expect(events.filter((e) => e.type === "turn.completed")).toHaveLength(2);
  });

  it("shell: a completed command item with its output", () => {
    const events = load("shell");
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(command?.type === "item.completed" && command.payload.status).toBe("completed");
    expect(JSON.stringify(command?.payload)).toContain("mock-shell-output");
    const output = events.filter(
      (e) => e.type === "content.delta" && e.payload.streamKind === "command_output",
    );
    expect(output.map((e) => (e.type === "content.delta" ? e.payload.delta : "")).join("")).toContain(
      "mock-shell-output",
    );
  });

  it("plan: the todo_list is a plan item and the turn's plan", () => {
    const events = load("plan");
    expect(events.some((e) => e.type === "item.completed" && e.payload.itemType === "plan")).toBe(true);
    const plan = events.find((e) => e.type === "turn.plan.updated");
    expect(plan?.type === "turn.plan.updated" && plan.payload.plan.length).toBeGreaterThan(0);
  });

  it("error-500: runtime.error and a failed turn", () => {
    const events = load("error-500");
    expect(events.filter((e) => e.type === "runtime.error").length).toBeGreaterThanOrEqual(2);
    const turn = events.find((e) => e.type === "turn.completed");
    expect(turn?.type === "turn.completed" && turn.payload.state).toBe("failed");
  });

  it("turn.completed carries usage with cached and cache-write tokens", () => {
    const turn = load("text").find((e) => e.type === "turn.completed");
    const usage = turn?.type === "turn.completed" ? turn.payload.usage : undefined;
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(usage?.cachedInputTokens).toBe(0);
    expect(usage?.cacheWriteTokens).toBe(0);
  });

  it("interrupt: the host's turn.interrupt ends the turn and its open command item", () => {
    const events = load("interrupt");
    const turn = events.find((e) => e.type === "turn.completed");
    expect(turn?.type === "turn.completed" && turn.payload.state).toBe("interrupted");
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(command?.type === "item.completed" && command.payload.status).toBe("failed");
  });
});
