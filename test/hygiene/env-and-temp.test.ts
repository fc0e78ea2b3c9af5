import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { descendants, environOf } from "./procs.js";
import { runShellTurn } from "./shell-turn.js";
import { makeDriver, TARGETS } from "./targets.js";

/** Host credentials a mock run must never hand to an agent. */
const FAKE = {
  OPENAI_API_KEY: "sk-fake-openai-hygiene-4b1d",
  ANTHROPIC_API_KEY: "sk-ant-fake-hygiene-9c2e",
  GITHUB_TOKEN: "ghp_fakehygiene7a3f",
};
const FAKE_VALUES = Object.values(FAKE);

let mock: MockModelServer;
let work: string;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  mock = await startMockModel();
  work = mkdtempSync(join(tmpdir(), "hygiene-work-"));
  for (const key of [...Object.keys(FAKE), "TMPDIR"]) saved[key] = process.env[key];
  Object.assign(process.env, FAKE);
});
afterAll(async () => {
  for (const [key, value] of Object.entries(saved))
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  await mock?.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * Every file under `dir` (recursively) whose content holds a fake credential. The agent may still be running (at
 * turn.completed): a transient file (a SQLite -shm) or dir (exec's `arg0` links) can vanish meanwhile.
 */
function filesWithSecrets(dir: string): string[] {
  const hits: string[] = [];
  for (const entry of ifPresent(() => readdirSync(dir, { withFileTypes: true })) ?? []) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) hits.push(...filesWithSecrets(path));
    if (!entry.isFile()) continue;
    const text = ifPresent(() => readFileSync(path, "latin1"));
    if (text !== undefined && FAKE_VALUES.some((value) => text.includes(value))) hits.push(path);
  }
  return hits;
}

/** What `read` returns, or undefined for a file or dir that is gone (ENOENT). */
function ifPresent<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Modes of the dirs and files directly made by the driver (the top level of the private TMPDIR). */
function topLevelModes(dir: string): Array<{ name: string; mode: string }> {
  return readdirSync(dir).map((name) => ({
    name,
    mode: (statSync(join(dir, name)).mode & 0o777).toString(8),
  }));
}

describe("an agent against the mock gets no host credential, and leaves no temp dir", () => {
  for (const target of TARGETS) {
    it(`${target}: no fake credential in the agent's environ or its state; TMPDIR empty after stop`, async () => {
      const privateTmp = mkdtempSync(join(work, "tmp-"));
      process.env.TMPDIR = privateTmp;
      const cwd = mkdtempSync(join(work, "cwd-"));
      const driver = await makeDriver(target, { cwd, modelBaseUrl: mock.baseUrl });
      let seen = 0;
      const leaks: string[] = [];
      const scan = () => {
        for (const proc of descendants(process.pid)) {
          const environ = environOf(proc.pid);
          if (environ === undefined) continue;
          seen += 1;
          for (const [key, value] of Object.entries(FAKE))
            if (environ.includes(value)) leaks.push(`${key} in pid ${proc.pid}`);
        }
      };
      let stateLeaks: string[] = [];
      let modes: Array<{ name: string; mode: string }> = [];
      let events: RuntimeEvent[];
      try {
        events = await runShellTurn(driver, {
          poll: scan,
          atRest: (moment) => {
            scan();
            if (moment !== "turn-end") return;
            stateLeaks = filesWithSecrets(privateTmp);
            modes = topLevelModes(privateTmp);
          },
        });
      } finally {
        process.env.TMPDIR = saved.TMPDIR ?? tmpdir();
      }
      expect(events.at(-1)?.type).toBe("session.exited");
      expect(seen, "agent processes whose environ was read").toBeGreaterThan(0);
      expect(leaks).toEqual([]);
      expect(stateLeaks).toEqual([]);
      expect(modes.length, "the driver's own dirs in TMPDIR during the run").toBeGreaterThan(0);
      for (const { name, mode } of modes) expect(`${name} ${mode}`).toBe(`${name} 700`);
      expect(readdirSync(privateTmp)).toEqual([]);
      // No mock launch runs unsandboxed: codex-acp 2.x takes its sandbox from the session mode (read-only) and
      // its @openai/codex ships bubblewrap. A danger-full-access config would be a warning (the ACP driver's).
      const sandboxWarnings = events.filter(
        (e) => e.type === "runtime.warning" && JSON.stringify(e.payload).includes("sandbox-disabled"),
      );
      expect(sandboxWarnings.length).toBe(0);
    }, 90_000);
  }
});
