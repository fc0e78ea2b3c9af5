import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { REPO } from "./browser.js";

/** Fixtures whose turns make up a big session: commands, diffs, reasoning, plans, a subagent, questions. */
const TURN_SOURCES = [
  "test/fixtures/codex/shell.expected.jsonl",
  "test/fixtures/codex/edit.expected.jsonl",
  "test/fixtures/claude/subagent.expected.jsonl",
  "test/fixtures/codex/reasoning.expected.jsonl",
  "test/fixtures/codex/plan.expected.jsonl",
  "test/fixtures/claude/question.expected.jsonl",
];
/** One turn of 3,000 streamed deltas, once, second in the session. */
const LONG_TURN = "test/fixtures/claude/long.expected.jsonl";

const ID_FIELDS = ["turnId", "itemId", "parentItemId", "requestId"] as const;

function readStream(path: string): RuntimeEvent[] {
  return readFileSync(join(REPO, path), "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as RuntimeEvent);
}

/**
 * One session of at least `size` events made of the fixtures' turns, copied over and over (and one long
 * streamed answer): each copy's turn,
 * item and request ids get a suffix so no two copies merge, and the sequence runs 1..N without a gap, all in the first
 * fixture's thread.
 */
export function bigSession(size: number, sessionId = "ses_big"): RuntimeEvent[] {
  const turnsOf = (path: string) => readStream(path).filter((e) => e.turnId !== undefined);
  const sources = TURN_SOURCES.map(turnsOf);
  const first = readStream(TURN_SOURCES[0] as string);
  const threadId = first.find((e) => e.threadId !== undefined)?.threadId;
  const out: RuntimeEvent[] = [];
  const push = (event: RuntimeEvent, copy: number) => {
    const next = { ...event, sessionId, sequence: out.length + 1, eventId: `evt_big_${out.length + 1}` };
    if (threadId !== undefined && next.threadId !== undefined) next.threadId = threadId;
    const record = next as unknown as Record<string, unknown>;
    for (const field of ID_FIELDS) {
      if (typeof record[field] === "string") record[field] = `${record[field]}_${copy}`;
    }
    out.push(next as RuntimeEvent);
  };
  for (const event of first.filter((e) => e.turnId === undefined && e.type !== "session.exited"))
    push(event, 0);
  for (const event of sources[0] as RuntimeEvent[]) push(event, 0);
  for (const event of turnsOf(LONG_TURN)) push(event, 0);
  for (let copy = 1; out.length < size; copy++) {
    for (const event of sources[copy % sources.length] as RuntimeEvent[]) push(event, copy);
  }
  return out;
}
