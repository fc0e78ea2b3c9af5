import { spawnSync } from "node:child_process";
import { firstExecutable } from "./fixed-programs.js";

/**
 * How the guard starts an agent lower than the host: through util-linux `chrt` and coreutils `nice`, which set
 * their own scheduling and then exec the agent, so the agent and everything it starts run lowered from their
 * first instruction while the guard itself keeps the host's priority. (A guard that lowered itself before the
 * spawn ran its own timers and its exit at that priority: on a busy machine a SCHED_IDLE guard took seconds to
 * end a stopped agent, and the host, tired of waiting, removed a session dir the agent then wrote anew.)
 */
const NICE = ["/usr/bin/nice", "/bin/nice"];
const CHRT = ["/usr/bin/chrt", "/bin/chrt"];

let niceProgram: string | null | undefined;
function nice(): string | undefined {
  niceProgram ??= firstExecutable(NICE) ?? null;
  return niceProgram ?? undefined;
}

let idleScheduler: string | null | undefined;
/**
 * The `chrt` that puts a niceness-19 agent in SCHED_IDLE; undefined where there is none, or where the kernel
 * refuses it (tried once, by running `chrt --max` under it). A nice-19 task that has the CPU keeps it to the end
 * of its time slice when a normal one wakes; a SCHED_IDLE task gives it up at once (docs/performance.md).
 */
export function idleSchedulerProgram(): string | undefined {
  if (idleScheduler === undefined) {
    const chrt = process.platform === "linux" ? firstExecutable(CHRT) : undefined;
    const works =
      chrt !== undefined && spawnSync(chrt, ["--idle", "0", chrt, "--max"], { stdio: "ignore" }).status === 0;
    idleScheduler = works ? chrt : null;
  }
  return idleScheduler ?? undefined;
}

/**
 * What the guard runs the agent through to add `niceness` (0–19, already checked) to the host's: a command
 * prefix, empty for 0. Undefined where there is no `nice` program: the guard then lowers itself (see the guard).
 */
export function loweringPrefix(niceness: number): string[] | undefined {
  if (niceness === 0) return [];
  const program = nice();
  if (program === undefined) return undefined;
  const idle = niceness === 19 ? idleSchedulerProgram() : undefined;
  return [program, "-n", String(niceness), ...(idle === undefined ? [] : [idle, "--idle", "0"])];
}
