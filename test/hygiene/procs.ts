import { readdirSync, readFileSync } from "node:fs";

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
}

/** Every process on the machine, from /proc/<pid>/stat (Linux). */
export function allProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name is in parentheses and may contain spaces: the fields after its last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // gone meanwhile
    }
  }
  return procs;
}

/** The processes below `root` (its children, their children, ...). */
export function descendants(root: number): Proc[] {
  const procs = allProcs();
  const found: Proc[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const proc of procs)
      if (parents.has(proc.ppid) && !parents.has(proc.pid)) {
        parents.add(proc.pid);
        found.push(proc);
        grew = true;
      }
  }
  return found;
}

/** A process's environment, or undefined when it is gone or unreadable. */
export function environOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return undefined;
  }
}

/** Linux's scheduling policies as /proc reports them (field 41 of a thread's stat). */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

export interface ThreadScheduling {
  tid: number;
  /** Field 19 of /proc/<pid>/task/<tid>/stat. */
  nice: number;
  /** Field 41: SCHED_OTHER, SCHED_IDLE, … */
  policy: number;
}

/** Each thread of a process with its niceness and scheduling policy; [] when it is gone. */
export function threadScheduling(pid: number): ThreadScheduling[] {
  const threads: ThreadScheduling[] = [];
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      // Fields from the 3rd on follow the command name's last ")": the 19th is the 17th of them, the 41st the 39th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      threads.push({ tid: Number(tid), nice: Number(fields[16]), policy: Number(fields[38]) });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** A process's argv, or undefined when it is gone. */
export function argvOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return undefined;
  }
}
