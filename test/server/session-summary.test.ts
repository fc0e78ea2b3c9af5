import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { SessionSummary } from "../../src/server/session-summary.js";
import type { SessionRecord } from "../../src/store/types.js";

const FIXTURES = join(import.meta.dirname, "../fixtures");

const record: SessionRecord = {
  id: "ses_1",
  provider: "codex",
  origin: "live",
  state: "starting",
  createdAt: "2026-12-01T00:00:00.000Z",
  updatedAt: "2026-12-01T00:00:00.000Z",
  lastSequence: 0,
  openRequests: 0,
  exited: false,
} as SessionRecord;

function events(path: string): RuntimeEvent[] {
  return readFileSync(join(FIXTURES, path), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RuntimeEvent);
}

// AgentRun skips the registry update when `changed` is false (the SQLite append moves lastSequence and
// updatedAt itself): that is only right if such a patch would have changed nothing else.
it.each([
  "codex/shell.expected.jsonl",
  "codex/shell-declined.expected.jsonl",
  "claude/shell.expected.jsonl",
  "codex/resume-after-crash.expected.jsonl",
])("%s: a summary not `changed` would patch nothing but the last sequence and its time", (path) => {
  const summary = new SessionSummary(record);
  const shadow = new SessionSummary(record);
  let last = summary.patch(undefined);
  shadow.patch(undefined);
  let skipped = 0;
  for (const event of events(path)) {
    summary.observe(event);
    shadow.observe(event);
    const full = shadow.patch(undefined);
    if (!summary.changed) {
      skipped++;
      expect({ ...full, lastSequence: 0, updatedAt: "" }).toEqual({
        ...last,
        lastSequence: 0,
        updatedAt: "",
      });
      continue;
    }
    last = summary.patch(undefined);
    expect(last).toEqual(full);
  }
  expect(skipped).toBeGreaterThan(0);
});
