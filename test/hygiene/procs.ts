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
