/**
 * Records Claude fixtures: runs the real Claude Code through each mock scenario and writes the transcripts to
 * test/fixtures/claude/<scenario>.jsonl. Usage: npx tsx scripts/record-claude.ts [scenario...]
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CLAUDE_SCENARIOS, runClaudeScenario } from "../test/providers/claude/scenario-runner.js";

const FIXTURES = join(import.meta.dirname, "..", "test", "fixtures", "claude");

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const scenarios =
    wanted.length === 0 ? CLAUDE_SCENARIOS : CLAUDE_SCENARIOS.filter((s) => wanted.includes(s.name));
  await mkdir(FIXTURES, { recursive: true });
  for (const scenario of scenarios) {
    const started = Date.now();
    const run = await runClaudeScenario(scenario);
    await writeFile(join(FIXTURES, `${scenario.name}.jsonl`), `${run.transcript.join("\n")}\n`);
    const counts = new Map<string, number>();
    for (const event of run.events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
    console.log(
      `${scenario.name}: ${run.transcript.length} records, ${run.events.length} events, ${Date.now() - started} ms`,
      Object.fromEntries(counts),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
