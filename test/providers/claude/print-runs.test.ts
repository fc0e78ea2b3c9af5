import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { replayTranscript } from "../../../src/kit/replay.js";
import { findMapperDefinition } from "../../../src/mappers/registry.js";
import { UNFINISHED_RUN } from "../../../src/providers/claude/run-boundary.js";
import { verifyEvents } from "../../../src/verify/index.js";

// Recorded by scripts/record-claude-print-log.ts: five real `claude -p --output-format stream-json` runs appended
// to one file; the 2nd and 4th were killed in a shell command (no `result`), the 3rd resumes the 2nd's session.
const FIXTURE = join(import.meta.dirname, "..", "..", "fixtures", "claude-print", "print-runs.jsonl");
const lines = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean);
const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);

function normalize(input: string[]): RuntimeEvent[] {
  const definition = findMapperDefinition("claude-sdk");
  if (definition === undefined) throw new Error("no claude-sdk mapper");
  return replayTranscript(definition, input, "s1");
}

describe("a Claude stream-json log holding several runs", () => {
  const events = normalize(lines);
  const turns = events.filter((e) => e.type === "turn.completed");

  it("is what the recorder says: five inits, three results", () => {
    expect(records.filter((r) => r.type === "system" && r.subtype === "init")).toHaveLength(5);
    expect(records.filter((r) => r.type === "result")).toHaveLength(3);
  });

  it("verifies: each run's turn ends, its thread returns to idle before the next run's turn", () => {
    expect(verifyEvents(events)).toEqual([]);
    expect(turns.map((e) => e.payload.state)).toEqual([
      "completed",
      "failed",
      "completed",
      "failed",
      "completed",
    ]);
    expect(turns[1]?.payload.errorMessage).toBe(UNFINISHED_RUN);
  });

  it("closes a killed run on its own thread, and its open shell command with it", () => {
    const threads = events.filter((e) => e.type === "thread.started").map((e) => e.threadId);
    expect(threads).toHaveLength(4); // the 3rd run resumes the 2nd's session
    const started = events.filter((e) => e.type === "turn.started");
    for (const [index, turn] of turns.entries()) expect(turn.threadId).toBe(started[index]?.threadId);
    for (const turn of [turns[1], turns[3]]) {
      const idle = events.find(
        (e) =>
          e.type === "thread.state.changed" &&
          e.payload.state === "idle" &&
          e.threadId === turn?.threadId &&
          e.sequence > (turn?.sequence ?? 0),
      );
      expect(idle?.sequence).toBe((turn?.sequence ?? 0) + 2); // after session ready
      const shell = events.filter(
        (e) =>
          e.type === "item.completed" &&
          e.turnId === turn?.turnId &&
          e.payload.itemType === "command_execution",
      );
      expect(shell.map((e) => e.type === "item.completed" && e.payload.status)).toEqual(["failed"]);
    }
  });

  it("takes its times from the records: no 1970, in order, each run's init at that run's first record", () => {
    const timed = records.map((r) => r.timestamp).filter((t): t is string => typeof t === "string");
    const first = new Date(timed[0] ?? "").toISOString();
    const last = new Date(timed.at(-1) ?? "").toISOString();
    for (const event of events) {
      expect(event.createdAt >= first, `${event.type} at ${event.createdAt}`).toBe(true);
      expect(event.createdAt <= last, `${event.type} at ${event.createdAt}`).toBe(true);
    }
    const times = events.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort());
    // every run's configuration takes the time of the first timed record after its init
    const configured = events.filter((e) => e.type === "session.configured").map((e) => e.createdAt);
    const runStarts = records.flatMap((record, index) => {
      if (record.type !== "system" || record.subtype !== "init") return [];
      const next = records.slice(index).find((r) => typeof r.timestamp === "string");
      return [new Date(String(next?.timestamp)).toISOString()];
    });
    expect(configured).toEqual(runStarts);
    // a killed run ends at its last record, not when the next run began
    expect(turns[1]?.createdAt).toBe(new Date(String(records[5]?.timestamp)).toISOString());
  });

  it("closes a killed run on its own thread when the next run's replayed prompt comes before its init", () => {
    // HAND-MODIFIED (the real runs print the replay after the init): run 1's replayed prompt, given the session
    // id of the run after the killed one, put before that run's init
    const killed = lines.slice(4, 6);
    const nextRun = lines.slice(9, 11);
    const replay = { ...records[1], session_id: records[9]?.session_id, timestamp: records[10]?.timestamp };
    const mapped = normalize([...killed, JSON.stringify(replay), ...nextRun]);
    expect(verifyEvents(mapped)).toEqual([]);
    const started = mapped.filter((e) => e.type === "turn.started");
    const ended = mapped.filter((e) => e.type === "turn.completed");
    expect(ended.map((e) => e.payload.state)).toEqual(["failed"]);
    expect(ended[0]?.threadId).toBe(started[0]?.threadId);
    expect(started.map((e) => e.threadId)).toHaveLength(2);
    expect(started[1]?.threadId).not.toBe(started[0]?.threadId);
  });

  it("keeps a turn opened by the host's prompt before its own init (streaming input) open at that init", () => {
    // the driver's transcript: the prompt (`out`) comes before the init of the run it starts
    const transcript = readFileSync(
      join(import.meta.dirname, "..", "..", "fixtures", "claude", "multi-turn.jsonl"),
      "utf8",
    )
      .split("\n")
      .filter(Boolean);
    const mapped = normalize(transcript);
    expect(verifyEvents(mapped)).toEqual([]);
    expect(mapped.filter((e) => e.type === "turn.completed").map((e) => e.payload.state)).toEqual([
      "completed",
      "completed",
    ]);
  });
});
