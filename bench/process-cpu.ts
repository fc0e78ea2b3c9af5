// CPU time of a process and of the processes below it, from /proc (Linux): what the server and its agents cost
// during a bench window, beside the bench's own process.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, seconds. */
  cpu: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name is in parentheses and may hold spaces: fields are counted after its closing one
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return {
      ppid: Number(fields[1]),
      cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

export interface TreeCpu {
  /** The process itself. */
  own: number;
  /** Every process below it, alive when read. */
  descendants: number;
}

/** CPU seconds used so far by `root` and by its descendants (those alive now). */
export function treeCpu(root: number): TreeCpu {
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = procStat(pid);
    if (stat !== undefined) stats.set(pid, stat);
  }
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  let descendants = 0;
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    descendants += stats.get(pid)?.cpu ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return { own: stats.get(root)?.cpu ?? 0, descendants };
}

/** CPU seconds of this process so far. */
export function ownCpu(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}
