import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { allProcs, type Proc } from "./procs.js";
import { slowExecCommand, TARGETS } from "./targets.js";

const HOST = join(dirname(fileURLToPath(import.meta.url)), "host.ts");
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

let mock: MockModelServer;
let work: string;

beforeAll(async () => {
  mock = await startMockModel({ script: slowExecCommand });
  work = mkdtempSync(join(tmpdir(), "hygiene-kill-"));
});
afterAll(async () => {
  await mock?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Starts the host mid-turn; resolves with the processes below it once it says READY. */
function startHost(target: string, privateTmp: string) {
  const cwd = mkdtempSync(join(work, "cwd-"));
  const host = spawn(process.execPath, ["--import", "tsx", HOST, target, mock.baseUrl, cwd], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: privateTmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  host.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = new Promise<Proc[]>((resolve, reject) => {
    let out = "";
    host.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^READY (.*)$/m.exec(out);
      if (line?.[1] !== undefined) resolve(JSON.parse(line[1]) as Proc[]);
    });
    host.once("exit", (code) =>
      reject(new Error(`host exited (${code}) before READY: ${stderr.slice(-800)}`)),
    );
    setTimeout(() => reject(new Error(`no READY within 60 s: ${stderr.slice(-800)}`)), 60_000).unref();
  });
  return { host, ready };
}

/**
 * The processes still alive of those recorded, or in any of their groups but the host's own (the test runner's,
 * which codex exec shares: the SDK spawns it, through the guard, in the host's group), polled for up to `ms`.
 */
async function survivors(recorded: Proc[], hostGroup: number | undefined, ms: number): Promise<Proc[]> {
  const pgids = new Set(recorded.map((p) => p.pgid).filter((pgid) => pgid !== hostGroup));
  const pids = new Set(recorded.map((p) => p.pid));
  const deadline = Date.now() + ms;
  for (;;) {
    const left = allProcs().filter((p) => pgids.has(p.pgid) || pids.has(p.pid));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("no agent process outlives its host", () => {
  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    for (const target of TARGETS) {
      it(`${target}: host ${signal}ed mid-turn → the agent's groups are empty within 5 s, TMPDIR empty`, async () => {
        const privateTmp = mkdtempSync(join(work, "tmp-"));
        const { host, ready } = startHost(target, privateTmp);
        try {
          const recorded = await ready;
          const hostGroup = allProcs().find((p) => p.pid === host.pid)?.pgid;
          const agents = recorded.filter((p) => p.pgid !== hostGroup);
          expect(agents.length, "processes in the agents' own groups").toBeGreaterThan(0);
          const startedAt = Date.now();
          host.kill(signal);
          const left = await survivors(recorded, hostGroup, 5_000);
          expect(left, `left after ${Date.now() - startedAt} ms`).toEqual([]);
          // The guard removes the session's dirs once the agent is gone (tsx-* is the host's own tsx cache).
          expect(readdirSync(privateTmp).filter((name) => !name.startsWith("tsx-"))).toEqual([]);
        } finally {
          host.kill("SIGKILL");
        }
      }, 90_000);
    }
  }
});
