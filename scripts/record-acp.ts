/**
 * Records ACP fixtures: each known ACP agent from npm (claude-agent-acp, codex-acp, opencode, copilot), driven through the mock
 * model's scenarios, writes its wire traffic to test/fixtures/acp/<agent>-<scenario>.jsonl.
 * Run: npx tsx scripts/record-acp.ts [agent] [scenario]
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KNOWN_ACP_AGENTS } from "../src/providers/acp/agent-commands.js";
import { ACP_SCENARIOS, runAcpScenario } from "../test/providers/acp/scenario-run.js";

const outDir = join(import.meta.dirname, "..", "test", "fixtures", "acp");
const [onlyAgent, onlyScenario] = process.argv.slice(2);

await mkdir(outDir, { recursive: true });
for (const agent of KNOWN_ACP_AGENTS) {
  if (onlyAgent !== undefined && agent !== onlyAgent) continue;
  for (const scenario of ACP_SCENARIOS) {
    if (onlyScenario !== undefined && scenario.name !== onlyScenario) continue;
    const started = Date.now();
    const { events, transcript } = await runAcpScenario(agent, scenario, { timeoutMs: 60_000 });
    const file = join(outDir, `${agent}-${scenario.name}.jsonl`);
    await writeFile(file, `${transcript.join("\n")}\n`);
    const turns = events.filter((event) => event.type === "turn.completed").length;
    console.log(
      `${agent}/${scenario.name}: ${transcript.length} lines, ${events.length} events, ${turns} turns, ${Date.now() - started} ms`,
    );
  }
}
