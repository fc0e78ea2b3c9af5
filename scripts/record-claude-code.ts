/**
 * Records Claude Code session files: runs the real Claude Code (through the claude driver) against the mock model
 * for each scenario with a config dir of our own, and keeps what Claude Code wrote there, as it wrote it:
 *   test/fixtures/claude-code/<scenario>.jsonl                  the session file
 *   test/fixtures/claude-code/<scenario>/subagents/agent-*.jsonl its subagents' files (+ .meta.json), if any
 *   test/fixtures/claude-code/live/<scenario>.jsonl             the live claude-sdk transcript of the same run
 * The goldens (<scenario>.expected.jsonl) are written by `npx tsx scripts/record-claude-code.ts --goldens`.
 * Usage: npx tsx scripts/record-claude-code.ts [scenario...] | --goldens
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLAUDE_CODE_FIXTURES, RECORDED_SCENARIOS, writeGolden } from "../test/claude-code/recordings.js";
import { CLAUDE_SCENARIOS, runClaudeScenario } from "../test/providers/claude/scenario-runner.js";

async function record(name: string): Promise<void> {
  const scenario = CLAUDE_SCENARIOS.find((s) => s.name === name);
  if (scenario === undefined) throw new Error(`no Claude scenario "${name}"`);
  const configDir = await mkdtemp(join(tmpdir(), "claude-code-record-"));
  try {
    const run = await runClaudeScenario({
      ...scenario,
      driver: { ...scenario.driver, env: { CLAUDE_CONFIG_DIR: configDir } },
    });
    const projects = join(configDir, "projects");
    const [project] = await readdir(projects);
    if (project === undefined) throw new Error(`${name}: Claude Code wrote no project dir`);
    const sessions = (await readdir(join(projects, project))).filter((f) => f.endsWith(".jsonl"));
    if (sessions.length !== 1)
      throw new Error(`${name}: expected one session file, found ${sessions.length}`);
    const session = (sessions[0] as string).replace(/\.jsonl$/, "");
    await cp(join(projects, project, `${session}.jsonl`), join(CLAUDE_CODE_FIXTURES, `${name}.jsonl`));
    await rm(join(CLAUDE_CODE_FIXTURES, name), { recursive: true, force: true });
    const subagents = join(projects, project, session, "subagents");
    const agentFiles = await readdir(subagents).catch(() => [] as string[]);
    if (agentFiles.length > 0)
      await cp(subagents, join(CLAUDE_CODE_FIXTURES, name, "subagents"), { recursive: true });
    await mkdir(join(CLAUDE_CODE_FIXTURES, "live"), { recursive: true });
    await writeFile(join(CLAUDE_CODE_FIXTURES, "live", `${name}.jsonl`), `${run.transcript.join("\n")}\n`);
    console.log(
      `${name}: session ${session}, ${agentFiles.length} subagent files, ${run.events.length} live events`,
    );
  } finally {
    await rm(configDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  await mkdir(CLAUDE_CODE_FIXTURES, { recursive: true });
  if (args.includes("--goldens")) {
    for (const name of RECORDED_SCENARIOS) await writeGolden(name);
    return;
  }
  for (const name of args.length === 0 ? RECORDED_SCENARIOS : args) await record(name);
  for (const name of args.length === 0 ? RECORDED_SCENARIOS : args) await writeGolden(name);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
