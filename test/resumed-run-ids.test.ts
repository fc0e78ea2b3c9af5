import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../src/contracts/events.js";
import type { SourceName } from "../src/kit/mapper.js";
import { parseTranscriptLine } from "../src/kit/transcript.js";
import { MAPPER_DEFINITIONS } from "../src/mappers/registry.js";

// A resumed session (the server's restore) runs the same mapper again with `sequenceAfter`: the agent's native
// keys can repeat the first run's (counted turns, a restarted model's message ids), so the ids must not.
const CASES: [SourceName, string][] = [
  ["claude-sdk", "claude/shell.jsonl"],
  ["codex-app-server", "codex/shell.jsonl"],
  ["codex-sdk", "codex-sdk/shell.jsonl"],
  ["acp", "acp/claude-agent-acp-edit.jsonl"],
];

function mapRun(source: SourceName, file: string, sequenceAfter: number): RuntimeEvent[] {
  const definition = MAPPER_DEFINITIONS.find((d) => d.source === source);
  if (definition === undefined) throw new Error(`no mapper ${source}`);
  const mapper = definition.create({ sessionId: "ses_resumed", sequenceAfter });
  const text = readFileSync(join(import.meta.dirname, "fixtures", file), "utf8");
  return text.split("\n").flatMap((line, index) => {
    const entry = parseTranscriptLine(line, index + 1);
    return entry === undefined ? [] : mapper.map(entry);
  });
}

const idsOf = (events: RuntimeEvent[], key: "turnId" | "itemId" | "requestId" | "threadId") =>
  new Set(events.flatMap((event) => (event[key] === undefined ? [] : [event[key] as string])));

describe("a resumed run of the same transcript", () => {
  for (const [source, file] of CASES) {
    it(`${source}: turn, item and request ids differ from the first run's, the thread id and sequence go on`, () => {
      const first = mapRun(source, file, 0);
      const resumed = mapRun(source, file, first.length);
      expect(resumed[0]?.sequence).toBe(first.length + 1);
      expect(idsOf(first, "turnId").size).toBeGreaterThan(0);
      expect(idsOf(first, "itemId").size).toBeGreaterThan(0);
      for (const key of ["turnId", "itemId", "requestId"] as const) {
        const before = idsOf(first, key);
        const shared = [...idsOf(resumed, key)].filter((id) => before.has(id));
        expect(shared, key).toEqual([]);
      }
      expect(idsOf(resumed, "threadId")).toEqual(idsOf(first, "threadId"));
    });
  }
});
