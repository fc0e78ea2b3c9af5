/**
 * Runs the real `claude -p --output-format stream-json` several times against the mock model and appends each
 * run's stdout to one log, as a loop that restarts Claude Code does. Some runs are killed mid-turn (the hold
 * scenario keeps a shell command running), so they end without a `result`. Used by
 * `scripts/record-claude-print-log.ts`. Node-only.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findPackageDir } from "../../../src/drivers/agent-programs.js";
import {
  claudeEnv,
  HOLD_RELEASE_FILE,
  SCENARIO_PROMPTS,
  startMockModel,
} from "../../../src/mock-model/index.js";
import { until } from "../../support/until.js";

export interface PrintRun {
  /** What the run is, for the recorder's report. */
  label: string;
  prompt: string;
  /** Send the prompt as a stream-json user message on stdin, with `--replay-user-messages`. */
  streamInput?: boolean;
  /** Resume the session of an earlier run (its index) with `--resume`. */
  resumeRun?: number;
  /** SIGKILL the run once its output shows a tool call: it ends without a `result`. */
  killAtToolCall?: boolean;
  /** The working directory (a sub-directory of the recording's): a resumed session must run where it began. */
  dir: "first" | "second";
}

/**
 * The recorded log: a finished run (its prompt replayed on stdout), a killed run, a run that resumes the killed
 * session and finishes, a killed run in a new session, and a finished run in another new session.
 */
export const PRINT_LOG_RUNS: PrintRun[] = [
  { label: "replayed prompt, finished", prompt: SCENARIO_PROMPTS.text, streamInput: true, dir: "first" },
  { label: "killed in a shell command", prompt: SCENARIO_PROMPTS.hold, killAtToolCall: true, dir: "first" },
  {
    label: "resumes the killed session, finished",
    prompt: SCENARIO_PROMPTS.text,
    resumeRun: 1,
    dir: "first",
  },
  { label: "new session, killed", prompt: SCENARIO_PROMPTS.hold, killAtToolCall: true, dir: "second" },
  { label: "new session, finished", prompt: SCENARIO_PROMPTS.shell, dir: "second" },
];

export function claudeBinary(): string {
  const dir = findPackageDir(`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`);
  if (dir === undefined)
    throw new Error("the Claude Code binary of @anthropic-ai/claude-agent-sdk is not installed");
  return join(dir, "claude");
}

/** Runs `runs` one after another in one cwd and config dir; resolves to the appended stdout of all of them. */
export async function recordPrintLog(runs: PrintRun[] = PRINT_LOG_RUNS, timeoutMs = 60_000): Promise<string> {
  const mock = await startMockModel();
  const root = await mkdtemp(join(tmpdir(), "claude-print-"));
  const configDir = await mkdtemp(join(tmpdir(), "claude-print-config-"));
  const outputs: string[] = [];
  const sessions: (string | undefined)[] = [];
  try {
    for (const run of runs) {
      const resume = run.resumeRun === undefined ? undefined : sessions[run.resumeRun];
      if (run.resumeRun !== undefined && resume === undefined)
        throw new Error(`run ${run.label}: run ${run.resumeRun} named no session`);
      const cwd = join(root, run.dir);
      await mkdir(cwd, { recursive: true });
      const output = await printRun(run, { cwd, env: claudeEnv(mock.baseUrl, configDir), resume, timeoutMs });
      outputs.push(output);
      sessions.push(/"session_id":"([^"]+)"/.exec(output)?.[1]);
      if (run.killAtToolCall) {
        // The killed run's shell command outlives it, waiting for this file: release it and wait until it ends.
        await writeFile(join(cwd, HOLD_RELEASE_FILE), "");
        if (!(await until(async () => (await processesIn(cwd)) === 0, timeoutMs)))
          throw new Error(`run ${run.label}: its shell command did not end`);
        await rm(join(cwd, HOLD_RELEASE_FILE));
      }
    }
  } finally {
    await mock.close();
    await rm(root, { recursive: true, force: true });
    await rm(configDir, { recursive: true, force: true });
  }
  return outputs.join("");
}

/** How many processes run with their cwd in `dir` (Linux /proc; a process that ends meanwhile is not counted). */
async function processesIn(dir: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (cwd !== undefined && (cwd === dir || cwd.startsWith(`${dir}/`))) count++;
  }
  return count;
}

interface RunPlace {
  cwd: string;
  env: Record<string, string>;
  resume: string | undefined;
  timeoutMs: number;
}

function printRun(run: PrintRun, place: RunPlace): Promise<string> {
  // The prompt comes first: `--allowedTools` takes every argument after it.
  const args = run.streamInput ? ["-p"] : ["-p", run.prompt];
  args.push("--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5");
  if (place.resume !== undefined) args.push("--resume", place.resume);
  if (run.streamInput) args.push("--input-format", "stream-json", "--replay-user-messages");
  args.push("--allowedTools", "Bash");
  const child = spawn(claudeBinary(), args, {
    cwd: place.cwd,
    env: place.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stdin = run.streamInput
    ? `${JSON.stringify({ type: "user", message: { role: "user", content: run.prompt } })}\n`
    : "";
  child.stdin.end(stdin);
  let output = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`run ${run.label}: no end in ${place.timeoutMs} ms\n${stderr}`));
    }, place.timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      // Killed only at a line boundary, so the log holds whole records, as a killed writer leaves it.
      if (run.killAtToolCall && output.endsWith("\n") && output.includes('"type":"tool_use"'))
        child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const killed = run.killAtToolCall === true && signal === "SIGKILL";
      if (code !== 0 && !killed) reject(new Error(`run ${run.label}: exit ${code ?? signal}\n${stderr}`));
      else resolve(output);
    });
  });
}
