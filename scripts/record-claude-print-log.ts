/**
 * Records a Claude stream-json log holding several runs: the real `claude -p --output-format stream-json` run five
 * times against the mock model, each run's stdout appended to one file, two of them killed mid-turn (no `result`).
 * Writes test/fixtures/claude-print/print-runs.jsonl as Claude Code printed it (bare records, no transcript envelope).
 * Usage: npx tsx scripts/record-claude-print-log.ts
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PRINT_LOG_RUNS, recordPrintLog } from "../test/providers/claude/print-runs.js";

const FIXTURE = join(import.meta.dirname, "..", "test", "fixtures", "claude-print", "print-runs.jsonl");

async function main(): Promise<void> {
  const started = Date.now();
  const log = await recordPrintLog();
  await writeFile(FIXTURE, log);
  const records = log.split("\n").filter((line) => line.length > 0);
  const results = records.filter((line) => line.includes('"type":"result"')).length;
  console.log(
    `${PRINT_LOG_RUNS.length} runs, ${records.length} records, ${results} results, ${Date.now() - started} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
