import type { Proc } from "./procs.js";

/** How a snapshot of a host's descendants splits around its process guards. */
export interface GuardedSplit {
  guards: Proc[];
  /** Running processes below a guard (the agent, its children, their tools). */
  belowGuard: Proc[];
  /** Running processes the host started that are neither a guard nor below one. */
  unguarded: Proc[];
}

/**
 * Splits `procs` (a snapshot of the host's descendants) by their argv, read now: `argvOf` gives undefined for a
 * process gone since the snapshot and [] for a zombie; `isGuard` names a guard by its argv; `launchers` are the
 * programs an agent or guard is exec'd through (a process still in one runs nothing of its own yet).
 */
export function splitByGuard(
  procs: readonly Proc[],
  argvOf: (pid: number) => string[] | undefined,
  isGuard: (argv: string[]) => boolean,
  launchers: ReadonlySet<string>,
): GuardedSplit {
  const byPid = new Map<number, Proc>(procs.map((proc) => [proc.pid, proc]));
  const argvs = new Map<number, string[] | undefined>(procs.map((proc) => [proc.pid, argvOf(proc.pid)]));
  const guardPids = new Set(
    procs.filter((proc) => isGuard(argvs.get(proc.pid) ?? [])).map((proc) => proc.pid),
  );
  const running = (pid: number): boolean => (argvs.get(pid)?.length ?? 0) > 0;
  /** below a guard, or not; undefined while an ancestor has exited and the kernel moves its children away */
  const belowGuard = (proc: Proc): boolean | undefined => {
    for (let up = byPid.get(proc.ppid); up !== undefined; up = byPid.get(up.ppid)) {
      if (guardPids.has(up.pid)) return true;
      if (!running(up.pid)) return undefined;
    }
    return false;
  };
  const split: GuardedSplit = { guards: [], belowGuard: [], unguarded: [] };
  for (const proc of procs) {
    const argv = argvs.get(proc.pid);
    if (argv === undefined || argv.length === 0 || launchers.has(argv[0] ?? "")) continue;
    if (guardPids.has(proc.pid)) {
      split.guards.push(proc);
      continue;
    }
    const below = belowGuard(proc);
    if (below === true) split.belowGuard.push(proc);
    else if (below === false) split.unguarded.push(proc);
    // undefined: judged by a later sample, once it has a parent that runs (or has left the host's tree)
  }
  return split;
}
