/**
 * Records real `codex app-server` traffic against the mock model, one transcript per scenario:
 * `npx tsx scripts/record-codex.ts [scenario...]` → test/fixtures/codex/<scenario>.jsonl
 * Approvals are answered by the script (accept, or decline for `shell-declined`).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCENARIO_PROMPTS, scenarioRecordings, startMockModel } from "../src/mock-model/index.js";
import { createCodexDriver } from "../src/providers/codex/driver.js";
import { type AutoAnswer, acceptAll, driveTurns } from "../test/providers/codex/drive-turns.js";

interface Scenario {
  prompts: string[];
  answer?: AutoAnswer;
}

const SCENARIOS: Record<string, Scenario> = {
  ...scenarioRecordings([
    "text",
    "reasoning",
    "shell",
    "edit",
    "plan",
    "multi-turn",
    "cutoff",
    "long",
    "subagent",
  ]),
  "shell-declined": { prompts: [SCENARIO_PROMPTS.shell], answer: () => ({ decision: "decline" }) },
};

const FIXTURES = join(import.meta.dirname, "..", "test", "fixtures", "codex");

async function record(name: string, scenario: Scenario, baseUrl: string): Promise<void> {
  const cwd = await mkdtemp(join(tmpdir(), "codex-fixture-"));
  const lines: string[] = [];
  const driver = createCodexDriver({
    cwd,
    sessionId: `codex-${name}`,
    modelBaseUrl: baseUrl,
    record: (line) => lines.push(line),
  });
  const started = Date.now();
  try {
    await driver.start();
    const events = await driveTurns(driver, scenario.prompts, scenario.answer ?? acceptAll);
    await driver.stop();
    await writeFile(join(FIXTURES, `${name}.jsonl`), `${lines.join("\n")}\n`);
    console.log(`${name}: ${lines.length} lines, ${events.length} events, ${Date.now() - started} ms`);
  } finally {
    await driver.stop();
    await rm(cwd, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2);
const names = wanted.length > 0 ? wanted : Object.keys(SCENARIOS);
const mock = await startMockModel();
try {
  for (const name of names) {
    const scenario = SCENARIOS[name];
    if (scenario === undefined) throw new Error(`unknown scenario ${name}`);
    await record(name, scenario, mock.baseUrl);
  }
} finally {
  await mock.close();
}
