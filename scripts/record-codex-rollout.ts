/**
 * Records `codex-rollout` and `codex-eventmsg` fixtures from the real `codex exec` (the pinned @openai/codex) run
 * against the mock model:
 * - test/fixtures/codex-rollout/<name>.jsonl — the rollout file codex wrote under $CODEX_HOME/sessions, verbatim;
 * - test/fixtures/codex-rollout/<name>.exec.jsonl — the live run's `--experimental-json` stdout (every run of the
 *   scenario, in order), so a test can compare the rollout's assistant text with the live run's;
 * - test/fixtures/codex-eventmsg/<name>.jsonl — DERIVED, not hand-typed: each `event_msg` line of the recorded
 *   rollout re-wrapped as the legacy app-server notification `{method: "codex/event/<type>", params: {id, msg,
 *   conversationId}}` in our transcript format (`{t, dir: "in", msg}`, t = the line's timestamp). 0.171.0 no
 *   longer sends these notifications, so this is how its real EventMsg traffic reaches the codex-eventmsg mapper.
 * Run: `npx tsx scripts/record-codex-rollout.ts [name...]`, then
 * `UPDATE_GOLDEN=1 npx vitest run src/providers/codex-eventmsg` to refresh the expected files.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  codexBinaryPath,
  SCENARIO_PROMPTS,
  scenarioRecordings,
  startMockModel,
  writeCodexHome,
} from "../src/mock-model/index.js";

interface Recording {
  /** The first prompt runs `codex exec`, each further one `codex exec resume <thread>` (same rollout file). */
  prompts: string[];
  /** Extra `-c key=value` overrides for codex. */
  overrides?: string[];
}

const ROOT = join(import.meta.dirname, "..");
const ROLLOUT_DIR = join(ROOT, "test", "fixtures", "codex-rollout");
const EVENTMSG_DIR = join(ROOT, "test", "fixtures", "codex-eventmsg");
const RUN_TIMEOUT_MS = 60_000;

const RECORDINGS: Record<string, Recording> = {
  ...scenarioRecordings(["text", "reasoning", "shell", "edit", "plan", "question", "multi-turn"]),
  // One retry instead of five: the same stream_error/error records in a second.
  "error-500": {
    prompts: [SCENARIO_PROMPTS["error-500"]],
    overrides: ["model_providers.mock.stream_max_retries=1", "model_providers.mock.request_max_retries=0"],
  },
};

interface ExecRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

function runCodex(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ExecRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [codexBinaryPath(), ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`codex ${args[0]} timed out after ${RUN_TIMEOUT_MS} ms\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

async function rolloutFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /^rollout-.*\.jsonl$/.test(entry.name))
      found.push(join(entry.parentPath, entry.name));
  }
  return found.sort();
}

function threadIdOf(stdout: string): string | undefined {
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as { type?: string; thread_id?: string };
    if (event.type === "thread.started" && event.thread_id !== undefined) return event.thread_id;
  }
  return undefined;
}

/** The derivation of the codex-eventmsg fixture: rollout `event_msg` lines → `codex/event/*` notifications. */
export function eventMsgTranscript(rollout: string): string {
  const out: string[] = [];
  let threadId: string | undefined;
  let turnId = "";
  for (const text of rollout.split("\n")) {
    if (text.trim().length === 0) continue;
    const line = JSON.parse(text) as { timestamp?: string; type?: string; payload?: Record<string, unknown> };
    if (line.type === "session_meta") threadId = String(line.payload?.id ?? "");
    if (line.type !== "event_msg" || line.payload === undefined) continue;
    const type = String(line.payload.type);
    if (type === "task_started" && typeof line.payload.turn_id === "string") turnId = line.payload.turn_id;
    const params: Record<string, unknown> = { id: turnId, msg: line.payload };
    if (threadId !== undefined) params.conversationId = threadId;
    out.push(
      JSON.stringify({ t: line.timestamp, dir: "in", msg: { method: `codex/event/${type}`, params } }),
    );
  }
  return `${out.join("\n")}\n`;
}

async function record(name: string, recording: Recording, baseUrl: string): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), "codex-rollout-home-"));
  const cwd = await mkdtemp(join(tmpdir(), "codex-rollout-cwd-"));
  try {
    const codexEnv = await writeCodexHome(home, baseUrl);
    const env = { PATH: process.env.PATH, HOME: home, ...codexEnv };
    const overrides = (recording.overrides ?? []).flatMap((value) => ["-c", value]);
    const common = ["--experimental-json", "--skip-git-repo-check", ...overrides];
    const stdouts: string[] = [];
    let threadId: string | undefined;
    for (const [index, prompt] of recording.prompts.entries()) {
      const args =
        // `exec resume` takes no -s: the sandbox comes from the resumed session.
        index === 0
          ? ["exec", ...common, "-s", "workspace-write", prompt]
          : ["exec", "resume", ...common, String(threadId), prompt];
      const run = await runCodex(args, cwd, env);
      if (run.code !== 0 && name !== "error-500")
        throw new Error(`${name}: codex exited ${run.code}\n${run.stderr}`);
      stdouts.push(run.stdout);
      threadId ??= threadIdOf(run.stdout);
    }
    const files = await rolloutFiles(join(home, "sessions"));
    if (files.length !== 1) throw new Error(`${name}: expected one rollout file, found ${files.length}`);
    const rollout = await readFile(files[0] as string, "utf8");
    await writeFile(join(ROLLOUT_DIR, `${name}.jsonl`), rollout);
    await writeFile(join(ROLLOUT_DIR, `${name}.exec.jsonl`), stdouts.join(""));
    await writeFile(join(EVENTMSG_DIR, `${name}.jsonl`), eventMsgTranscript(rollout));
    console.log(`${name}: ${rollout.split("\n").filter(Boolean).length} rollout lines`);
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const selected = names.length > 0 ? names : Object.keys(RECORDINGS);
  const mock = await startMockModel();
  try {
    for (const name of selected) {
      const recording = RECORDINGS[name];
      if (recording === undefined) throw new Error(`unknown recording ${name}`);
      await record(name, recording, mock.baseUrl);
    }
  } finally {
    await mock.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
