import { mkdtempSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriverOptions } from "../../src/contracts/driver.js";
import { idleSchedulerProgram, loweringPrefix } from "../../src/drivers/agent-priority.js";
import { newGroupPrefix } from "../../src/drivers/process-group.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import type { CodexAppServerDriver } from "../../src/providers/codex/driver.js";
import { splitByGuard } from "./guarded-procs.js";
import { argvOf, descendants, SCHED_IDLE, SCHED_OTHER, threadScheduling } from "./procs.js";
import { runShellTurn } from "./shell-turn.js";
import { makeDriver, TARGETS, type Target } from "./targets.js";

let mock: MockModelServer;
let work: string;

beforeAll(async () => {
  mock = await startMockModel();
  work = mkdtempSync(join(tmpdir(), "hygiene-nice-"));
});
afterAll(async () => {
  await mock?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A process guard (process-guard.ts): `node -e SOURCE CONFIG`, its source naming itself in its error line. */
function isGuard(argv: string[]): boolean {
  return (
    argv[0] === process.execPath && argv[1] === "-e" && argv[2]?.includes("provider-runtime guard") === true
  );
}

/** The programs a guard and its agent are started through (agent-priority.ts, process-group.ts). */
const LAUNCHERS = new Set(
  [...(loweringPrefix(19) ?? []), ...(newGroupPrefix() ?? [])].filter((arg) => arg.startsWith("/")),
);

/** What a run saw, polled every 100 ms and at each request and turn end. */
interface Seen {
  /** Every thread of every process below a guard (the agent, its children, their tools): "pid/tid argv" → nices. */
  agentThreads: Map<string, Set<number>>;
  /** The same threads → their scheduling policies. */
  agentPolicies: Map<string, Set<number>>;
  agentPids: Set<number>;
  /** A guard's main thread, once the guard is running: it stays at the host's priority (its timers end agents). */
  guardNice: Map<number, Set<number>>;
  guardPolicies: Map<number, Set<number>>;
  /** Processes this host started that are neither a guard nor below one. */
  unguarded: Set<string>;
}

function note<K>(seen: Map<K, Set<number>>, key: K, nice: number): void {
  const values = seen.get(key) ?? new Set();
  values.add(nice);
  seen.set(key, values);
}

function sample(seen: Seen, atRest: boolean): void {
  // A process whose guard or agent exited since the snapshot, not yet re-parented, is judged by a later sample.
  const split = splitByGuard(descendants(process.pid), argvOf, isGuard, LAUNCHERS);
  for (const guard of split.guards) {
    // Read once the agent is up (a request, a turn's end).
    const main = threadScheduling(guard.pid).find((thread) => thread.tid === guard.pid);
    if (atRest && main !== undefined) {
      note(seen.guardNice, guard.pid, main.nice);
      note(seen.guardPolicies, guard.pid, main.policy);
    }
  }
  for (const proc of split.belowGuard) {
    const name = nameOf(proc.pid);
    seen.agentPids.add(proc.pid);
    for (const thread of threadScheduling(proc.pid)) {
      note(seen.agentThreads, `${proc.pid}/${thread.tid} ${name}`, thread.nice);
      note(seen.agentPolicies, `${proc.pid}/${thread.tid} ${name}`, thread.policy);
    }
  }
  for (const proc of split.unguarded) seen.unguarded.add(`${proc.pid} ${nameOf(proc.pid)}`);
}

function nameOf(pid: number): string {
  return (argvOf(pid) ?? []).slice(0, 2).join(" ");
}

/** One `mock:shell` turn (its approval accepted), sampling the agent's processes throughout. */
async function runSampled(
  target: Target,
  options: Partial<DriverOptions>,
): Promise<Seen & { agentPid?: number }> {
  const cwd = mkdtempSync(join(work, "cwd-"));
  const driver = await makeDriver(target, { cwd, modelBaseUrl: mock.baseUrl, ...options });
  const seen: Seen = {
    agentThreads: new Map(),
    agentPolicies: new Map(),
    agentPids: new Set(),
    guardNice: new Map(),
    guardPolicies: new Map(),
    unguarded: new Set(),
  };
  let agentPid: number | undefined;
  const events = await runShellTurn(driver, {
    poll: () => sample(seen, false),
    started: () => {
      if (target === "codex") agentPid = (driver as CodexAppServerDriver).pid;
    },
    atRest: () => sample(seen, true),
  });
  expect(events.find((e) => e.type === "turn.completed")?.payload).toMatchObject({ state: "completed" });
  return { ...seen, ...(agentPid === undefined ? {} : { agentPid }) };
}

/** The entries ever seen at a niceness other than `expected` (empty when none was). */
function offBy(entries: Map<string | number, Set<number>>, expected: number): string[] {
  return [...entries]
    .filter(([, nices]) => [...nices].some((nice) => nice !== expected))
    .map(([key, nices]) => `${key}: ${[...nices].join(",")}`);
}

describe("DriverOptions.niceness: the agent, every thread and every process of it, below the host (real agents)", () => {
  const host = getPriority();
  const lowered = Math.min(19, host + 5);

  for (const target of TARGETS) {
    it(`${target}: niceness 5 puts every agent thread at the host's + 5; the host and its guards stay put`, async () => {
      const seen = await runSampled(target, { niceness: 5 });
      expect(seen.agentPids.size, "agent processes seen").toBeGreaterThan(0);
      expect(seen.agentThreads.size, "agent threads seen").toBeGreaterThan(3);
      expect(offBy(seen.agentThreads, lowered)).toEqual([]);
      expect(offBy(seen.agentPolicies, SCHED_OTHER)).toEqual([]);
      expect(seen.guardNice.size, "guards read at rest").toBeGreaterThan(0);
      expect(offBy(seen.guardNice, host)).toEqual([]);
      expect([...seen.unguarded]).toEqual([]);
      expect(getPriority()).toBe(host);
      if (target === "codex") expect(seen.agentPids).toContain(seen.agentPid);
    }, 90_000);
  }

  for (const target of TARGETS) {
    it.runIf(idleSchedulerProgram() !== undefined)(
      `${target}: niceness 19 puts every agent thread at 19 and in SCHED_IDLE, its guard in neither`,
      async () => {
        const seen = await runSampled(target, { niceness: 19 });
        expect(seen.agentThreads.size, "agent threads seen").toBeGreaterThan(3);
        expect(offBy(seen.agentThreads, 19)).toEqual([]);
        expect(offBy(seen.agentPolicies, SCHED_IDLE)).toEqual([]);
        expect(seen.guardNice.size, "guards read at rest").toBeGreaterThan(0);
        expect(offBy(seen.guardNice, host)).toEqual([]);
        expect(offBy(seen.guardPolicies, SCHED_OTHER)).toEqual([]);
        expect([...seen.unguarded]).toEqual([]);
      },
      90_000,
    );
  }

  it("every driver refuses a niceness outside 0..19 when it is made (before it creates anything)", async () => {
    for (const target of TARGETS)
      for (const niceness of [-1, 20, 2.5]) {
        const made = makeDriver(target, { cwd: work, modelBaseUrl: mock.baseUrl, niceness });
        await expect(made, `${target} ${niceness}`).rejects.toThrow(
          /niceness must be a whole number 0\.\.19/,
        );
      }
  });

  it("codex without niceness: every agent thread at the host's niceness (the default is 0)", async () => {
    const seen = await runSampled("codex", {});
    expect(seen.agentThreads.size, "agent threads seen").toBeGreaterThan(3);
    expect(offBy(seen.agentThreads, host)).toEqual([]);
  }, 90_000);
});
