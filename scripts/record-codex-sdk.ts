/**
 * Records `codex-sdk` fixtures: the real `codex exec` (the SDK's own codex 0.163.0) through the mock model's
 * scenarios, via the driver, into test/fixtures/codex-sdk/<name>.jsonl. Run: `npx tsx scripts/record-codex-sdk.ts
 * [name...]`, then `UPDATE_GOLDEN=1 npx vitest run src/providers/codex-sdk` to refresh the expected files.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  SCENARIO_PROMPTS,
  type ScriptOverride,
  scenarioRecordings,
  startMockModel,
} from "../src/mock-model/index.js";
import { type CodexSdkDriverOptions, createCodexSdkDriver } from "../src/providers/codex-sdk/driver.js";
import { EventCollector } from "../test/providers/codex-sdk/session-runner.js";

interface Recording {
  prompts: string[];
  config?: CodexSdkDriverOptions["config"];
  script?: ScriptOverride;
  /** Interrupt the first turn once a command item has started. */
  interrupt?: boolean;
}

const FIXTURES = join(import.meta.dirname, "..", "test", "fixtures", "codex-sdk");

const RECORDINGS: Record<string, Recording> = {
  ...scenarioRecordings(["text", "reasoning", "shell", "edit", "plan", "multi-turn"]),
  // Fewer retries than the default 5 (each with back-off): the same events, in a second instead of 25.
  "error-500": {
    prompts: [SCENARIO_PROMPTS["error-500"]],
    config: { model_providers: { mock: { stream_max_retries: 1, request_max_retries: 0 } } },
  },
  // A setting exec does not know: exec reports it as `error` items (the only way it emits that item type here).
  "error-item": { prompts: ["mock:text hello"], config: { unknown_setting_for_fixture: true } },
  interrupt: {
    prompts: ["mock:shell run a slow command"],
    interrupt: true,
    script: (facts) =>
      facts.scenario === "shell" && facts.toolResults.length === 0 && facts.tools.has("exec_command")
        ? {
            kind: "stream",
            label: "shell",
            blocks: [{ type: "tool_call", name: "exec_command", input: { cmd: "sleep 3" } }],
          }
        : undefined,
  },
};

async function record(name: string, recording: Recording): Promise<void> {
  const mock = await startMockModel(recording.script === undefined ? {} : { script: recording.script });
  const cwd = await mkdtemp(join(tmpdir(), "codex-sdk-cwd-"));
  const lines: string[] = [];
  const driver = createCodexSdkDriver({
    cwd,
    modelBaseUrl: mock.baseUrl,
    record: (line) => lines.push(line),
    ...(recording.config === undefined ? {} : { config: recording.config }),
  });
  const collector = new EventCollector(driver);
  try {
    await driver.start();
    for (const prompt of recording.prompts) {
      const from = collector.events.length;
      await driver.sendTurn({ text: prompt });
      if (recording.interrupt === true) {
        await collector.waitFor(
          (e) => e.type === "item.started" && e.payload.itemType === "command_execution",
          from,
        );
        await driver.interrupt();
      }
      await collector.turnEnd(from);
    }
  } finally {
    await driver.stop();
    await collector.done;
    await mock.close();
    await rm(cwd, { recursive: true, force: true });
  }
  await writeFile(join(FIXTURES, `${name}.jsonl`), `${lines.join("\n")}\n`);
  const types = collector.events.map((e) => e.type);
  console.log(`${name}: ${lines.length} transcript lines, ${types.length} events`);
}

const wanted = process.argv.slice(2);
for (const [name, recording] of Object.entries(RECORDINGS)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  await record(name, recording);
}
