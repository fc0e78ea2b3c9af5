import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import type { Socket } from "node:net";
import { delimiter, isAbsolute, join } from "node:path";
import { loweringPrefix } from "./agent-priority.js";
import { firstExecutable } from "./fixed-programs.js";
import { guardPrefix, newGroupPrefix } from "./process-group.js";
import { writePrivateFile } from "./temp-dirs.js";

/**
 * Every agent runs under a guard: a tiny Node program (below, run with `node -e`) that starts the agent in a
 * process group of its own (in the host's session, see process-group.ts), with the agent's stdio the guard's own
 * (the host's pipes, untouched), and
 * - forwards SIGTERM/SIGHUP (then SIGKILL after `GUARD_GRACE_MS`) and SIGINT to the agent's whole group;
 * - when the agent exits, kills what is left of its group, waits for what the agent started outside it (a session
 *   of its own, as Codex's sandbox helper makes: the guard is their subreaper, process-group.ts) through its grace,
 *   then kills those, and exits the same way (code or signal);
 * - when the host dies (even by SIGKILL), ends the group the same way and removes the session's temp dirs. Node has
 *   no PR_SET_PDEATHSIG: the guard sees its control pipe (fd 3) close, or (spawned by an SDK, without that pipe)
 *   its parent pid change, polled every 200 ms.
 * So a driver talks to the guard as it would to the agent: signal it, read and write its pipes, await its exit.
 * With a niceness, the guard starts the agent through `nice` (and `chrt`) and keeps its own priority
 * (`GuardOptions.niceness`, agent-priority.ts).
 */
export const GUARD_GRACE_MS = 1_500;
/** How long a driver waits for the guard before it kills the guard itself (the guard's escalation comes first). */
export const HOST_KILL_AFTER_MS = GUARD_GRACE_MS + 3_000;

const GUARD_SOURCE = `"use strict";
const { spawn } = require("node:child_process");
const { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } = require("node:fs");
const { Socket } = require("node:net");
const { signals } = require("node:os").constants;
const cfg = JSON.parse(process.argv[1]);
const [program, ...args] = cfg.command.concat(process.argv.slice(2));
const host = process.ppid;
let hostGone = false;
// For a host that does not spawn the guard itself (an SDK does): a file named after this pid while it runs.
const pidFile = cfg.pidDir === undefined ? undefined : cfg.pidDir + "/" + process.pid;
const unlistPid = () => { if (pidFile !== undefined) { try { rmSync(pidFile, { force: true }); } catch {} } };
// The host made that dir and removes it when the session ends: a guard started after that (an SDK's spawn
// racing the stop) runs nothing, rather than letting the agent make the session's dirs anew.
if (pidFile !== undefined) {
  try { closeSync(openSync(pidFile, "w", 0o600)); } catch (error) {
    try { writeSync(2, "provider-runtime guard: the session's dir is gone (" + error.code + "); not starting\\n"); } catch {}
    process.exit(1);
  }
}
// The agent is lowered by the programs it is started through (agent-priority.ts), the guard is not: its timers
// and its exit keep the host's pace. Without a nice program the guard lowers its forking thread instead (Linux
// keeps a niceness per thread, and a child takes its forking thread's).
if (cfg.lowerVia === null && cfg.niceness > 0) {
  const os = require("node:os");
  try { os.setPriority(Math.min(19, os.getPriority() + cfg.niceness)); } catch {}
}
// The agent gets a process group of its own in the guard's session (process-group.ts), or else a session of its own.
const ownSession = cfg.groupVia === null;
const via = [...(cfg.groupVia ?? []), ...(cfg.lowerVia ?? [])];
const child = via.length === 0
  ? spawn(program, args, { stdio: "inherit", detached: ownSession })
  : spawn(via[0], [...via.slice(1), program, ...args], { stdio: "inherit", detached: ownSession });
// With Linux's autogroup scheduling (on by default) a session of its own is a group that shares the CPU with the
// others as a whole, whatever its members' niceness: 50 agents would each weigh as much as the host. So such an
// agent's group is lowered as well, by the same amount against the host's group.
if (ownSession && cfg.niceness > 0 && child.pid !== undefined) {
  try {
    // the host's line is empty when it runs in the root group (not an autogroup), which weighs as nice 0
    const hostGroup = Number(/nice (-?\\d+)/.exec(readFileSync("/proc/" + host + "/autogroup", "utf8"))?.[1] ?? 0);
    writeFileSync("/proc/" + child.pid + "/autogroup", String(Math.min(19, hostGroup + cfg.niceness)));
  } catch {}
}
// The agent has the host's pipes now: the guard lets go of them, so that the host sees the agent close one.
child.once("spawn", () => { for (const fd of [0, 1, 2]) { try { closeSync(fd); } catch {} } });
// (until its group exists, just after the spawn, the agent alone)
const group = (sig) => { try { process.kill(-child.pid, sig); } catch { try { process.kill(child.pid, sig); } catch {} } };
let killer;
const end = () => { group("SIGTERM"); killer ??= setTimeout(() => group("SIGKILL"), cfg.graceMs); };
const lost = () => { if (!hostGone) { hostGone = true; end(); } };
process.on("SIGTERM", end);
process.on("SIGHUP", end);
process.on("SIGINT", () => group("SIGINT"));
// With the control pipe, its closing says it; polling as well would wake 50 guards 250 times a second.
const watch = cfg.control ? undefined : setInterval(() => { if (process.ppid !== host) lost(); }, 200);
if (cfg.control) {
  const control = new Socket({ fd: 3, readable: true, writable: true });
  control.on("error", () => {});
  control.on("close", lost);
  control.resume();
  if (child.pid !== undefined) control.write(child.pid + "\\n");
}
child.once("error", (error) => {
  try { writeSync(2, "provider-runtime guard: " + error.message + "\\n"); } catch {}
  unlistPid();
  process.exit(127);
});
// What the agent left running outside its group: the guard is their subreaper (process-group.ts), so they are its
// children now, apart from zombies (which Node does not reap) and the agent itself.
const orphans = () => {
  let pids;
  try {
    pids = readdirSync("/proc/self/task").flatMap((task) => readFileSync("/proc/self/task/" + task + "/children", "utf8").split(" "));
  } catch {
    // no children files (CONFIG_PROC_CHILDREN): every process's parent, from its stat
    try { pids = readdirSync("/proc").filter((name) => statOf(name)?.ppid === process.pid); } catch { return []; }
  }
  return pids.filter((pid) => pid !== "" && (statOf(pid)?.state ?? "Z") !== "Z");
};
const statOf = (pid) => {
  try {
    const stat = readFileSync("/proc/" + pid + "/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], ppid: Number(fields[1]) };
  } catch { return undefined; }
};
// They had their own way of ending with the agent (Codex's sandbox helper has PR_SET_PDEATHSIG and cleans up in
// its TMPDIR when it comes): the guard waits for them through its grace, then kills them with their groups, and
// only then exits (and removes dirs), so the host's wait for the guard covers everything that may write there.
const afterOrphans = (done) => {
  const deadline = Date.now() + cfg.graceMs;
  const check = () => {
    const left = orphans();
    if (left.length === 0) return done();
    if (Date.now() >= deadline) {
      for (const pid of left) { try { process.kill(-Number(pid), "SIGKILL"); } catch {} try { process.kill(Number(pid), "SIGKILL"); } catch {} }
    }
    setTimeout(check, 25);
  };
  check();
};
child.once("exit", (code, signal) => {
  clearInterval(watch);
  clearTimeout(killer);
  group("SIGKILL");
  afterOrphans(() => finish(code, signal));
});
const finish = (code, signal) => {
  // A pid file gone while the agent ran: the host stopped waiting for it and removed the session's dir, which the
  // agent, still shutting down, may have written anew. Now that its group is gone, the guard removes that.
  const abandoned = pidFile !== undefined && !existsSync(pidFile);
  unlistPid();
  if (hostGone || abandoned || process.ppid !== host) for (const dir of cfg.cleanup) { try { rmSync(dir, { recursive: true, force: true }); } catch {} }
  if (signal === null) process.exit(code ?? 1);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  setTimeout(() => process.exit(128 + (signals[signal] ?? 1)), 100);
};
`;

const agentPids = new WeakMap<ChildProcess, number>();
const guards = new WeakSet<ChildProcess>();

/** The agent's pid (its process group's id) under a guard, once the guard has reported it. */
export function agentPidOf(child: ChildProcess): number | undefined {
  return agentPids.get(child) ?? (guards.has(child) ? undefined : child.pid);
}

/** SIGKILL to the agent's whole group: the last resort when the guard itself had to be killed. */
export function killAgentGroup(child: ChildProcess): void {
  const pid = agentPids.get(child);
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone
  }
}

export interface GuardOptions {
  cwd?: string | undefined;
  env: Record<string, string | undefined>;
  /** Directories removed if the host dies first (the driver removes them itself on a normal end). */
  cleanup?: readonly string[];
  /** Passed to spawn: aborting it sends SIGTERM to the guard. */
  signal?: AbortSignal | undefined;
  /**
   * How much lower than the host the agent runs: a whole number 0–19 added to the host's own niceness (Unix
   * `nice`), the sum capped at 19; the agent's children inherit it. Default 0: the host's priority. 19, the
   * most there is, also puts the agent in Linux's SCHED_IDLE class where util-linux `chrt` works (agent-priority.ts).
   */
  niceness?: number | undefined;
  /**
   * `host` (the default): the guard and the agent each lead a process group of their own in the host's session,
   * where Perl can make one (process-group.ts); `own`: each in a session of its own. Either way a terminal's Ctrl-C
   * reaches the host only, and the guard ends the agent's whole group.
   */
  session?: "host" | "own" | undefined;
}

/** The prefix that starts a program in a group of its own in the caller's session; null: in a session of its own. */
function groupPrefix(session: GuardOptions["session"]): string[] | null {
  return session === "own" ? null : (newGroupPrefix() ?? null);
}

/**
 * The niceness to add, checked: a whole number 0–19 (a negative one would raise the agent above the host). A
 * driver checks it when it is made, before it creates anything that a failed start would leave behind.
 */
export function checkedNiceness(niceness: number | undefined): number {
  if (niceness === undefined) return 0;
  if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19)
    throw new RangeError(`niceness must be a whole number 0..19, not ${niceness}`);
  return niceness;
}

/** The guard's own argv (after `node -e SOURCE`): its config; the agent's extra arguments follow it. */
function guardArgs(
  command: readonly string[],
  options: Pick<GuardOptions, "cleanup" | "niceness" | "session"> & { pidDir?: string },
  control: boolean,
): string[] {
  const niceness = checkedNiceness(options.niceness);
  const config = {
    pidDir: options.pidDir,
    command,
    cleanup: options.cleanup ?? [],
    control,
    graceMs: GUARD_GRACE_MS,
    niceness,
    lowerVia: loweringPrefix(niceness) ?? null,
    groupVia: groupPrefix(options.session),
  };
  return ["-e", GUARD_SOURCE, JSON.stringify(config)];
}

/**
 * Spawns `command` under the guard, with piped stdio. A program that cannot be found is spawned plainly instead,
 * so that the host sees the same `error` (ENOENT) event as before and nothing runs.
 */
export function spawnGuarded(
  command: readonly string[],
  options: GuardOptions,
): ChildProcessWithoutNullStreams {
  const [program, ...args] = command;
  if (program === undefined) throw new Error("empty agent command");
  const argv = guardArgs(command, options, true);
  const ownSession = options.session === "own";
  const prefix = guardPrefix(!ownSession);
  const base = {
    env: options.env,
    stdio: "pipe" as const,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  if (!findProgram(program, options.env.PATH, options.cwd))
    return spawn(program, args, { ...base, ...signal });
  // The guard has a group of its own too, so a terminal's Ctrl-C reaches the host only. fd 3: the control pipe;
  // the guard reports the agent's pid on it, and its closing (the host died) ends the agent.
  const [launcher, ...launch] = [...(prefix ?? []), process.execPath, ...argv];
  const child = spawn(launcher as string, launch, {
    ...base,
    ...signal,
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    detached: ownSession || prefix === undefined,
  });
  guards.add(child);
  const control = child.stdio[3] as Socket | null;
  if (control !== null) {
    control.setEncoding("utf8");
    control.on("error", () => undefined);
    control.on("data", (text: string) => {
      const pid = Number.parseInt(text, 10);
      if (Number.isInteger(pid) && pid > 0) agentPids.set(child, pid);
    });
    control.unref();
  }
  return child as ChildProcessWithoutNullStreams;
}

/**
 * For an SDK that spawns a program by path itself (codex-sdk's `codexPathOverride`): an executable script that
 * runs `program` under the guard, with the arguments it is given.
 */
export async function writeGuardScript(
  path: string,
  program: string,
  options: Pick<GuardOptions, "cleanup" | "niceness" | "session"> & { pidDir?: string } = {},
): Promise<string> {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const argv = [...(guardPrefix(false) ?? []), process.execPath, ...guardArgs([program], options, false)]
    .map(quote)
    .join(" ");
  await writePrivateFile(path, `#!/bin/sh\nexec ${argv} "$@"\n`, true);
  return path;
}

/** Whether `program` resolves to an executable (a path, or a name on `PATH`). */
export function findProgram(program: string, path: string | undefined, cwd?: string): boolean {
  const candidates = program.includes("/")
    ? [isAbsolute(program) ? program : join(cwd ?? process.cwd(), program)]
    : (path ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return firstExecutable(candidates) !== undefined;
}

/**
 * Resolves once no guard started with `pidDir` (writeGuardScript) runs any more, or after `timeoutMs`; true when
 * they all ended. A guard ends after its agent, so a host can remove what the agent writes to only then: an agent
 * that shuts down after the SDK gave up on it would otherwise write its dirs anew.
 */
export async function guardsEnded(pidDir: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let names: string[];
    try {
      names = await readdir(pidDir);
    } catch {
      return true; // no guard ever started (or its dir is gone)
    }
    const running = names.filter((name) => isRunning(Number(name)));
    if (running.length === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A guard killed outright leaves its file: it counts as ended once its pid is gone. */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
