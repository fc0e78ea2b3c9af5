import { readFileSync, unlinkSync } from "node:fs";
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The file in DATA that names the `serve` holding the directory. */
export const LOCK_FILE = "serve.lock";

/** Another live process holds the data dir. */
export class DataDirLockedError extends Error {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `${dataDir} is in use by another provider-runtime serve (pid ${pid}): stop that one, or give this one another --data`,
    );
    this.name = "DataDirLockedError";
    this.pid = pid;
  }
}

interface LockOwner {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), so that a reused pid is not taken for the owner. */
  started?: number;
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this process's. Idempotent; safe in an `exit` handler. */
  release(): void;
}

function startTimeOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const started = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isFinite(started) ? started : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = startTimeOf(owner.pid);
  return owner.started === undefined || started === undefined || started === owner.started;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    return typeof owner.pid === "number" && Number.isInteger(owner.pid) && owner.pid > 0
      ? { pid: owner.pid, ...(typeof owner.started === "number" ? { started: owner.started } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes this process the one `serve` of `dataDir`: creates DATA/serve.lock naming it, or throws
 * DataDirLockedError naming the live process that holds it. A lock left by a process that is gone (a crash, a
 * SIGKILL) is taken over: moved aside by a rename, which only one of two starting servers can win.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  const started = startTimeOf(process.pid);
  const mine = `${JSON.stringify({ pid: process.pid, ...(started === undefined ? {} : { started }) })}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await writeFile(file, mine, { flag: "wx", mode: 0o600 });
      return ownedLock(file, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue; // released meanwhile
    const owner = parseOwner(text);
    // a lock being written (empty for a moment) or unreadable counts as held until it is seen stale
    if (owner === undefined && text.trim() === "" && attempt < 4) {
      await new Promise((done) => setTimeout(done, 50));
      continue;
    }
    if (owner !== undefined && isRunning(owner)) throw new DataDirLockedError(dataDir, owner.pid);
    const aside = `${file}.stale-${process.pid}`;
    try {
      await rename(file, aside);
    } catch {
      continue; // another server moved it first
    }
    const moved = await readFile(aside, "utf8").catch(() => "");
    if (moved !== text) {
      // a fresh lock was written between the read and the rename: it is not ours to take
      await rename(aside, file).catch(() => undefined);
      const fresh = parseOwner(moved);
      if (fresh !== undefined) throw new DataDirLockedError(dataDir, fresh.pid);
      continue;
    }
    await unlink(aside).catch(() => undefined);
  }
  throw new Error(`${file}: could not take the lock (servers starting at once?)`);
}

function ownedLock(file: string, mine: string): DataDirLock {
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      try {
        if (readFileSync(file, "utf8") === mine) unlinkSync(file);
      } catch {
        // gone already
      }
    },
  };
}
