import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idleSchedulerProgram } from "../../src/drivers/agent-priority.js";
import { newGroupPrefix } from "../../src/drivers/process-group.js";
import { guardsEnded, spawnGuarded, writeGuardScript } from "../../src/drivers/process-guard.js";

/** A shell that prints its own niceness, then its child's (a second shell), one per line. */
const PRINT_NICE = ["sh", "-c", `ps -o ni= -p $$; sh -c 'ps -o ni= -p $$'`];

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "process-guard-test-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs a program to its end; its stdout split into trimmed lines, and its exit code. */
function outputOf(child: ReturnType<typeof spawn>): Promise<{ lines: string[]; code: number | null }> {
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    out += text;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) =>
      resolve({
        lines: out
          .trim()
          .split("\n")
          .map((line) => line.trim()),
        code,
      }),
    );
  });
}

const env = { PATH: process.env.PATH };

describe("the guard's niceness (real programs)", () => {
  const host = getPriority();

  it("runs the agent and its child at the host's niceness + 7", async () => {
    const { lines, code } = await outputOf(spawnGuarded(PRINT_NICE, { env, niceness: 7 }));
    expect(code).toBe(0);
    const expected = String(Math.min(19, host + 7));
    expect(lines).toEqual([expected, expected]);
  });

  describe.runIf(existsSync("/proc/self/autogroup"))("autogroups (Linux)", () => {
    // A process in the root group (not an autogroup, e.g. started by init without a session) has an empty line;
    // the root group weighs as nice 0.
    const groupNice = (line: string | undefined) => Number(/nice (-?\d+)/.exec(line ?? "")?.[1] ?? 0);
    /** The agent reports its own autogroup line (after a moment: the guard lowers it right after the spawn). */
    const printGroup = ["sh", "-c", "sleep 0.2; cat /proc/$$/autogroup"];

    it.runIf(newGroupPrefix() !== undefined)(
      "by default runs the agent in the host's autogroup (its session), which it leaves as it was",
      async () => {
        const own = readFileSync("/proc/self/autogroup", "utf8").trim();
        const lowered = await outputOf(spawnGuarded(printGroup, { env, niceness: 6 }));
        expect(lowered.lines[0]).toBe(own);
        expect(readFileSync("/proc/self/autogroup", "utf8").trim()).toBe(own);
      },
    );

    it("session own: lowers the agent's autogroup (its own session) by the same amount against the host's", async () => {
      const host = groupNice(readFileSync("/proc/self/autogroup", "utf8"));
      const lowered = await outputOf(spawnGuarded(printGroup, { env, niceness: 6, session: "own" }));
      expect(groupNice(lowered.lines[0])).toBe(Math.min(19, host + 6));
      const plain = await outputOf(spawnGuarded(printGroup, { env, session: "own" }));
      expect(groupNice(plain.lines[0])).toBe(host);
    });

    it("session own counts from the host's group: a host whose autogroup is at nice 3 gets its agent's at 3 + 6", async () => {
      const script = await writeGuardScript(join(work, "group-sh"), printGroup[0] as string, {
        niceness: 6,
        session: "own",
      });
      // a host in a session of its own (detached) that lowers its group to 3, then runs the guard as its child
      // (`; true` keeps the shell from exec'ing the guard, so the shell stays the guard's host)
      const args = printGroup.slice(1).map((arg) => `'${arg}'`);
      const host = `echo 3 > /proc/$$/autogroup && ${script} ${args.join(" ")}; true`;
      const { lines, code } = await outputOf(spawn("sh", ["-c", host], { env, detached: true }));
      expect(code).toBe(0);
      expect(lines[0]).toMatch(/^\/autogroup-\d+ nice 9$/);
    });
  });

  it.runIf(idleSchedulerProgram() !== undefined)(
    "at niceness 19 runs the agent and its child in SCHED_IDLE; at 18, in the normal class",
    async () => {
      const policies = ["sh", "-c", `chrt -p $$; sh -c 'chrt -p $$'`];
      const idle = await outputOf(spawnGuarded(policies, { env, niceness: 19 }));
      expect(idle.code).toBe(0);
      expect(idle.lines).toEqual([
        expect.stringMatching(/policy: SCHED_IDLE$/),
        expect.stringMatching(/priority: 0$/),
        expect.stringMatching(/policy: SCHED_IDLE$/),
        expect.stringMatching(/priority: 0$/),
      ]);
      const normal = await outputOf(spawnGuarded(policies, { env, niceness: 18 }));
      expect(normal.lines.filter((line) => line.includes("policy:"))).toEqual([
        expect.stringMatching(/policy: SCHED_OTHER$/),
        expect.stringMatching(/policy: SCHED_OTHER$/),
      ]);
    },
  );

  it.runIf(existsSync("/proc/self/stat"))(
    "keeps the guard itself at the host's niceness and class: only the agent is lowered",
    async () => {
      // fields 19 (nice) and 41 (policy) of a stat, counted after the command name; $PPID is the guard
      const fields = `cut -d')' -f2 /proc/$1/stat | awk '{print $17, $39}'`;
      const both = ["sh", "-c", `show() { ${fields}; }; show $$; show $PPID`];
      const { lines, code } = await outputOf(spawnGuarded(both, { env, niceness: 19 }));
      expect(code).toBe(0);
      const stat = readFileSync("/proc/self/stat", "utf8");
      const own = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      expect(lines[0]).toMatch(/^19 /);
      expect(lines[1]).toBe(`${own[16]} ${own[38]}`);
    },
  );

  it("leaves both at the host's niceness with niceness 0, and without one", async () => {
    for (const options of [{ env, niceness: 0 }, { env }]) {
      const { lines, code } = await outputOf(spawnGuarded(PRINT_NICE, options));
      expect(code).toBe(0);
      expect(lines).toEqual([String(host), String(host)]);
    }
  });

  it("does not lower the host: its own niceness is unchanged after a guarded spawn", async () => {
    await outputOf(spawnGuarded(PRINT_NICE, { env, niceness: 9 }));
    expect(getPriority()).toBe(host);
  });

  it("writeGuardScript: the script's program runs at + 5; under `nice -n 15`, + 10 is capped at 19", async () => {
    const script = await writeGuardScript(join(work, "guarded-sh"), "sh", { niceness: 5 });
    const args = PRINT_NICE.slice(1);
    const plain = await outputOf(spawn(script, args, { env }));
    expect(plain.code).toBe(0);
    expect(plain.lines).toEqual(Array(2).fill(String(Math.min(19, host + 5))));

    const capped = await writeGuardScript(join(work, "capped-sh"), "sh", { niceness: 10 });
    const under = await outputOf(spawn("nice", ["-n", "15", capped, ...args], { env }));
    expect(under.code).toBe(0);
    expect(under.lines).toEqual(["19", "19"]);
  });

  it("refuses a niceness that is negative, above 19 or not whole (nothing is spawned)", async () => {
    for (const niceness of [-1, 20, 1.5, Number.NaN]) {
      expect(() => spawnGuarded(["sh", "-c", "exit 0"], { env, niceness })).toThrow(
        /niceness must be a whole number 0\.\.19/,
      );
      await expect(writeGuardScript(join(work, "never"), "sh", { niceness })).rejects.toThrow(RangeError);
    }
  });
});

/** A process's session and process group ids (fields 6 and 5 of its stat). */
function sessionAndGroup(pid: number | string): { session: number; group: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { group: Number(fields[2]), session: Number(fields[3]) };
}

describe.runIf(existsSync("/proc/self/stat"))("the guard's process groups (Linux)", () => {
  /** The agent prints its own stat's pid, then its parent's (the guard's) pid. */
  const printIds = ["sh", "-c", "echo $$; echo $PPID; sleep 0.3"];

  /** Each of the pids the program printed first: its pid, group id and session id, read while it runs. */
  async function idsOf(child: ReturnType<typeof spawnGuarded>): Promise<number[][]> {
    const ids: number[][] = [];
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const pids = text.split("\n").filter(Boolean).map(Number);
      if (ids.length > 0 || pids.length < 2) return;
      for (const pid of pids) {
        const { group, session } = sessionAndGroup(pid);
        ids.push([pid, group, session]);
      }
    });
    expect((await outputOf(child)).code).toBe(0);
    return ids;
  }

  it.runIf(newGroupPrefix() !== undefined)(
    "by default the guard and the agent each lead a group of their own in the host's session",
    async () => {
      const child = spawnGuarded(printIds, { env, niceness: 19 });
      const host = sessionAndGroup("self").session;
      const ids = await idsOf(child);
      expect(ids).toEqual([
        [expect.any(Number), expect.any(Number), host],
        [child.pid, child.pid, host],
      ]);
      expect(ids[0]?.[1]).toBe(ids[0]?.[0]);
    },
  );

  it("session own: each in a session of its own (and the group of its session)", async () => {
    const ids = await idsOf(spawnGuarded(printIds, { env, session: "own" }));
    expect(ids).toHaveLength(2);
    for (const [pid, group, session] of ids) expect([group, session]).toEqual([pid, pid]);
  });
});

/** Resolves once `check` holds (polled every 20 ms); fails after `ms`. A busy machine starts a guard slowly. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A shell line that waits until `gate` exists: the test opens it when the agent may go on. */
const waitFor = (gate: string) => `while [ ! -e ${gate} ]; do sleep 0.02; done`;

describe("guardsEnded (a guard spawned by an SDK, through writeGuardScript)", () => {
  it("is false while a guard with the pid dir runs, true once it has exited, and its file is gone", async () => {
    const pidDir = join(work, "guards");
    mkdirSync(pidDir);
    const script = await writeGuardScript(join(work, "pid-sh"), "sh", { pidDir });
    const gate = join(work, "pid-gate");
    const child = spawn(script, ["-c", waitFor(gate)], { env });
    const exited = outputOf(child);
    await until(() => readdirSync(pidDir).length > 0);
    expect(readdirSync(pidDir)).toEqual([String(child.pid)]);
    expect(await guardsEnded(pidDir, 50)).toBe(false);
    writeFileSync(gate, "");
    expect(await guardsEnded(pidDir, 5_000)).toBe(true);
    expect((await exited).code).toBe(0);
    expect(readdirSync(pidDir)).toEqual([]);
  });

  it("counts a guard killed outright (its file left behind) as ended", async () => {
    const pidDir = join(work, "guards-killed");
    mkdirSync(pidDir);
    const script = await writeGuardScript(join(work, "pid-killed-sh"), "sh", { pidDir });
    // (the agent, in a group of its own, outlives its killed guard by the rest of its second)
    const child = spawn(script, ["-c", "sleep 1"], { env, detached: true });
    const exited = outputOf(child);
    await until(() => readdirSync(pidDir).length > 0);
    process.kill(-(child.pid as number), "SIGKILL");
    await exited;
    expect(readdirSync(pidDir)).toEqual([String(child.pid)]);
    expect(await guardsEnded(pidDir, 1_000)).toBe(true);
  });

  it("a guard whose pid dir is gone (the session was removed) starts nothing and exits 1", async () => {
    const script = await writeGuardScript(join(work, "pid-gone-sh"), "sh", { pidDir: join(work, "gone") });
    const marker = join(work, "ran");
    const { code } = await outputOf(spawn(script, ["-c", `touch ${marker}`], { env }));
    expect(code).toBe(1);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(work, "gone"))).toBe(false);
  });

  it("a guard whose pid file went while its agent ran (the host removed the session) removes what the agent wrote after", async () => {
    const session = join(work, "abandoned");
    const pidDir = join(session, "guards");
    mkdirSync(pidDir, { recursive: true });
    const script = await writeGuardScript(join(work, "abandoned-sh"), "sh", { pidDir, cleanup: [session] });
    const late = join(session, "home", "late");
    const gate = join(work, "abandoned-gate");
    const writeLate = `${waitFor(gate)}; mkdir -p ${join(session, "home")}; touch ${late}`;
    const child = spawn(script, ["-c", writeLate], { env });
    const exited = outputOf(child);
    await until(() => readdirSync(pidDir).length > 0);
    expect(readdirSync(pidDir)).toEqual([String(child.pid)]);
    await rm(session, { recursive: true, force: true });
    writeFileSync(gate, "");
    expect((await exited).code).toBe(0);
    expect(existsSync(session)).toBe(false);
  });

  it("with no pid dir at all (no guard ever started): true at once", async () => {
    expect(await guardsEnded(join(work, "never"), 10)).toBe(true);
  });
});

/** Whether `pid` runs: it exists and is not a zombie (an orphan's zombie may wait long for a reaper). */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * An agent that leaves a process behind in a session of its own (as Codex's sandbox helper does, out of the
 * reach of the signals to the agent's group), which prints its pid, waits for `gate`, writes `marker`; then the
 * agent itself exits at once.
 */
function leaveBehind(gate: string, marker: string): string[] {
  const orphan = `echo $$ > ${marker}.pid; ${waitFor(gate)}; touch ${marker}`;
  return [
    "sh",
    "-c",
    `setsid sh -c '${orphan}' </dev/null >/dev/null 2>&1 & while [ ! -s ${marker}.pid ]; do sleep 0.02; done`,
  ];
}

describe.runIf(existsSync("/proc/self/stat") && existsSync("/usr/bin/setsid"))(
  "what the agent leaves outside its group (Linux)",
  () => {
    it.runIf(newGroupPrefix() !== undefined)(
      "the guard waits for it, and removes the session's dirs only after it wrote there (writeGuardScript, guardsEnded)",
      async () => {
        const session = join(work, "left-behind");
        const pidDir = join(session, "guards");
        mkdirSync(pidDir, { recursive: true });
        const script = await writeGuardScript(join(work, "left-behind-sh"), "sh", { pidDir });
        const gate = join(work, "left-behind-gate");
        const marker = join(session, "late");
        const [, ...args] = leaveBehind(gate, marker);
        const child = spawn(script, args, { env });
        const exited = outputOf(child);
        await until(
          () => existsSync(`${marker}.pid`) && readFileSync(`${marker}.pid`, "utf8").endsWith("\n"),
        );
        const orphan = Number(readFileSync(`${marker}.pid`, "utf8"));
        try {
          // the agent has exited; what it left still runs, so the guard does too
          expect(await guardsEnded(pidDir, 300)).toBe(false);
          expect(runs(orphan)).toBe(true);
          writeFileSync(gate, "");
          expect(await guardsEnded(pidDir, 5_000)).toBe(true);
          expect(existsSync(marker)).toBe(true);
          expect(runs(orphan)).toBe(false);
          expect((await exited).code).toBe(0);
        } finally {
          if (runs(orphan)) process.kill(orphan, "SIGKILL");
        }
      },
    );

    it("the guard kills it (with its group) after the grace, then exits: nothing outlives the guard", async () => {
      const gate = join(work, "never-opened-gate");
      const marker = join(work, "killed-late");
      const child = spawnGuarded(leaveBehind(gate, marker), { env });
      const { code } = await outputOf(child);
      const orphan = Number(readFileSync(`${marker}.pid`, "utf8"));
      try {
        expect(code).toBe(0);
        expect(runs(orphan)).toBe(false);
        expect(existsSync(marker)).toBe(false);
      } finally {
        if (runs(orphan)) process.kill(orphan, "SIGKILL");
      }
    });
  },
);
