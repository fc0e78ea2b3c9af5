import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import type { MapperDefinition } from "../../../src/kit/mapper.js";
import { replayTranscript } from "../../../src/kit/replay.js";

export const FIXTURE_ROOT = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
export const ROLLOUT_FIXTURES = join(FIXTURE_ROOT, "codex-rollout");
export const EVENTMSG_FIXTURES = join(FIXTURE_ROOT, "codex-eventmsg");

/** Transcript fixtures of a folder (not the expected outputs, not the exec stdout captures). */
export function fixtureNames(dir: string): string[] {
  return readdirSync(dir)
    .filter(
      (name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl") && !name.endsWith(".exec.jsonl"),
    )
    .map((name) => name.slice(0, -".jsonl".length))
    .sort();
}

export function readLines(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0);
}

/** Maps transcript lines through a fresh mapper, then `finish()`, as `normalize` does. */
export function replay(
  definition: MapperDefinition,
  lines: readonly string[],
  sessionId = "golden",
): RuntimeEvent[] {
  return replayTranscript(definition, lines, sessionId);
}

export function toJsonl(events: readonly RuntimeEvent[]): string {
  return `${events.map((event) => JSON.stringify(event)).join("\n")}\n`;
}
