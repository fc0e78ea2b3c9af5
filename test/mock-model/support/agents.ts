import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeEnv, codexBinaryPath, writeCodexHome } from "../../../src/mock-model/agent-env.js";

/** A scratch directory tree per run: a home, a config dir and a working dir. */
export interface Scratch {
  root: string;
  home: string;
  cwd: string;
  remove(): Promise<void>;
}

export async function makeScratch(): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), "mock-model-"));
  return {
    root,
    home: join(root, "home"),
    cwd: join(root, "work"),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export interface CodexExecResult {
  exitCode: number | null;
  events: Record<string, unknown>[];
  stderr: string;
}

/** Runs the real `codex exec --experimental-json` against the mock, stdin from /dev/null. */
export async function runCodexExec(
  baseUrl: string,
  prompt: string,
  scratch: Scratch,
  extraEnv: Record<string, string> = {},
): Promise<CodexExecResult> {
  await mkdir(scratch.cwd, { recursive: true });
  await mkdir(scratch.home, { recursive: true });
  const codexEnv = await writeCodexHome(join(scratch.root, "codex-home"), baseUrl);
  const args = [
    codexBinaryPath(),
    "exec",
    "--experimental-json",
    "--skip-git-repo-check",
    "-s",
    "workspace-write",
    prompt,
  ];
  const child = spawn(process.execPath, args, {
    cwd: scratch.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch.home, ...codexEnv, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  const events = stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { exitCode, events, stderr };
}

export function codexItems(result: CodexExecResult, type: string): Record<string, unknown>[] {
  return result.events
    .filter((event) => event.type === "item.completed")
    .map((event) => event.item as Record<string, unknown>)
    .filter((item) => item.type === type);
}

export interface ClaudeQueryResult {
  messages: Record<string, unknown>[];
  permissionRequests: { toolName: string; input: Record<string, unknown> }[];
  result: string | undefined;
}

/** Runs the real Claude Agent SDK `query()` against the mock, allowing every tool it asks about. */
export async function runClaudeQuery(
  baseUrl: string,
  prompt: string,
  scratch: Scratch,
  extraEnv: Record<string, string> = {},
): Promise<ClaudeQueryResult> {
  await mkdir(scratch.cwd, { recursive: true });
  const { query } = await import("@anthropic-ai/claude-agent-sdk");
  const permissionRequests: ClaudeQueryResult["permissionRequests"] = [];
  const messages: Record<string, unknown>[] = [];
  const run = query({
    prompt,
    options: {
      env: { ...claudeEnv(baseUrl, join(scratch.root, "claude-config")), ...extraEnv },
      cwd: scratch.cwd,
      model: "claude-sonnet-4-5",
      includePartialMessages: true,
      permissionMode: "default",
      settingSources: [],
      canUseTool: async (toolName, input) => {
        permissionRequests.push({ toolName, input });
        return { behavior: "allow", updatedInput: input };
      },
    },
  });
  for await (const message of run) messages.push(message as unknown as Record<string, unknown>);
  const last = messages.findLast((message) => message.type === "result");
  return { messages, permissionRequests, result: typeof last?.result === "string" ? last.result : undefined };
}
