/**
 * The recorded Claude Code session files (scripts/record-claude-code.ts) and how the tests and the recorder
 * read them: through the same path as `normalize --from claude-code FILE` (subagent files merged in).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LineNormalizer } from "../../src/kit/line-normalizer.js";
import { findMapperDefinition } from "../../src/mappers/registry.js";
import { sessionFileLines } from "../../src/node/claude-code-session.js";

export const CLAUDE_CODE_FIXTURES = new URL("../fixtures/claude-code/", import.meta.url).pathname;

/** Scenarios of the claude scenario runner recorded as session files (text, approvals, edit, subagent, turns). */
export const RECORDED_SCENARIOS = [
  "text",
  "reasoning",
  "shell",
  "shell-decline",
  "edit",
  "plan",
  "question",
  "subagent",
  "multi-turn",
  "error-500",
] as const;

export const sessionFile = (name: string): string => join(CLAUDE_CODE_FIXTURES, `${name}.jsonl`);
export const liveTranscript = (name: string): string => join(CLAUDE_CODE_FIXTURES, "live", `${name}.jsonl`);
export const goldenFile = (name: string): string => join(CLAUDE_CODE_FIXTURES, `${name}.expected.jsonl`);

/** `normalize --from SOURCE` of a file as the CLI does it, in process: its output lines. */
export async function normalizeFile(source: "claude-code" | "claude-sdk", path: string, sessionId: string) {
  const definition = findMapperDefinition(source);
  if (definition === undefined) throw new Error(`no mapper ${source}`);
  const normalizer = new LineNormalizer(definition.create({ sessionId }), { validate: true });
  const out: string[] = [];
  const lines =
    source === "claude-code"
      ? sessionFileLines(path)
      : (async function* () {
          yield* readFileSync(path, "utf8").split("\n").filter(Boolean);
        })();
  for await (const line of lines) if (typeof line === "string") normalizer.line(line, out);
  normalizer.finish(out);
  return out;
}

export async function writeGolden(name: string): Promise<void> {
  const lines = await normalizeFile("claude-code", sessionFile(name), `claude-code-${name}`);
  writeFileSync(goldenFile(name), `${lines.join("\n")}\n`);
  console.log(`${name}: golden of ${lines.length} events`);
}
