import { getPriority } from "node:os";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { idleSchedulerProgram } from "../../src/drivers/agent-priority.js";
import { CliProcess } from "../cli/support/cli-process.js";
import { argvOf, descendants, SCHED_IDLE, SCHED_OTHER, threadScheduling } from "../hygiene/procs.js";
import { ServeProcess } from "./support/serve-process.js";

afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

/**
 * The niceness (and policy) of every thread of every process below the server, the guards' apart, and of the
 * server's own threads.
 */
function nicenessBelow(serverPid: number): {
  server: number[];
  agents: Map<string, number>;
  policies: Map<string, number>;
  guards: Map<string, string>;
} {
  const agents = new Map<string, number>();
  const policies = new Map<string, number>();
  const guards = new Map<string, string>();
  for (const proc of descendants(serverPid)) {
    const argv = argvOf(proc.pid);
    // A zombie (or a process gone meanwhile) has no argv: it runs nothing.
    if (argv === undefined || argv.length === 0) continue;
    const name = argv.slice(0, 2).join(" ");
    const guard = argv[0] === process.execPath && argv[1] === "-e";
    for (const thread of threadScheduling(proc.pid)) {
      const key = `${proc.pid}/${thread.tid} ${name}`;
      if (guard) guards.set(key, `${thread.nice} ${thread.policy}`);
      else {
        agents.set(key, thread.nice);
        policies.set(key, thread.policy);
      }
    }
  }
  return { server: threadScheduling(serverPid).map((thread) => thread.nice), agents, policies, guards };
}

describe("serve --agent-nice", () => {
  it("a value outside 0..19 (or not a whole number) is a usage error naming the flag (exit 2)", async () => {
    for (const value of ["30", "1.5", "ten"]) {
      const cli = new CliProcess(["serve", "--port", "0", "--agent-nice", value, "--data", "/nonexistent"]);
      expect(await cli.exited).toBe(2);
      expect(cli.stderr).toContain(`--agent-nice must be 0..19, not "${value}"`);
      expect(cli.stdout).not.toMatch(/listening/);
    }
  });

  const host = getPriority();
  for (const [flags, added] of [
    [[], 19],
    [["--agent-nice", "0"], 0],
  ] as const) {
    const label = flags.length === 0 ? "by default" : flags.join(" ");
    it(`${label}: a codex session's agent (every thread, every process) runs at the server's + ${added}`, async () => {
      const server = await ServeProcess.start({ token: "t", extra: ["--mock", ...flags] });
      const created = await server.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { provider: "codex" },
      });
      expect(created.status).toBe(201);
      const pid = server.cli.child.pid ?? 0;
      const { server: serverThreads, agents, policies, guards } = nicenessBelow(pid);
      expect(serverThreads.length).toBeGreaterThan(0);
      expect(new Set(serverThreads)).toEqual(new Set([host]));
      expect(agents.size, "agent threads").toBeGreaterThan(10);
      const expected = Math.min(19, host + added);
      expect([...agents].filter(([, nice]) => nice !== expected)).toEqual([]);
      // at 19 (the default) the agents also run in SCHED_IDLE, where chrt is installed
      const policy = added === 19 && idleSchedulerProgram() !== undefined ? SCHED_IDLE : SCHED_OTHER;
      expect([...policies].filter(([, p]) => p !== policy)).toEqual([]);
      expect(policies.size).toBeGreaterThan(10);
      // the guards keep the server's priority and class: only what they start is lowered
      expect(guards.size).toBeGreaterThan(0);
      expect([...guards].filter(([, how]) => how !== `${host} ${SCHED_OTHER}`)).toEqual([]);
      expect(await server.stop()).toBe(143);
    }, 60_000);
  }
});
