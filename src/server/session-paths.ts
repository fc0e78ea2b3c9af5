import { mkdir, realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { SessionCommandError } from "./session-commands.js";

/**
 * Where a session's files go under the data dir: `sessions/<id>/` for the agent's native state (kept as long as
 * the session, for a resume) and `work/<id>/`, the default working directory when no `--root` is set.
 */
export class SessionPaths {
  constructor(
    readonly dataDir: string,
    /** Every cwd must lie inside it (symlinks resolved); also the default cwd. */
    readonly root: string | undefined,
  ) {}

  stateDir(sessionId: string): string {
    return join(this.dataDir, "sessions", sessionId);
  }

  /** The default working directory of a session started without a cwd (and no --root). */
  workDir(sessionId: string): string {
    return join(this.dataDir, "work", sessionId);
  }

  /** Whether `dir` is one of the per-session dirs under the data dir (what a purge may remove). */
  owns(dir: string): boolean {
    const rel = relative(this.dataDir, resolve(dir));
    const [top, id, ...rest] = rel.split(sep);
    return (top === "sessions" || top === "work") && id !== undefined && id.length > 0 && rest.length === 0;
  }

  async makeStateDir(sessionId: string): Promise<string> {
    const dir = this.stateDir(sessionId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** The session's working directory: the one asked for, checked against the root, or a default. */
  async cwdFor(sessionId: string, asked: string | undefined): Promise<string> {
    if (asked === undefined) {
      if (this.root !== undefined) return this.root;
      const dir = this.workDir(sessionId);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return dir;
    }
    return this.#checked(resolve(this.root ?? process.cwd(), asked), asked);
  }

  /**
   * A stored session's cwd, checked again whenever its agent (re)starts: the server may have been restarted with
   * another `--root` since the session was made (a session without a cwd of its own works in the root now).
   */
  async checkedCwd(sessionId: string, stored: string | undefined): Promise<string> {
    return stored === undefined ? this.cwdFor(sessionId, undefined) : this.#checked(stored, stored);
  }

  async #checked(path: string, asked: string): Promise<string> {
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new SessionCommandError("invalid", `cwd: no such directory: ${asked}`, "cwd");
    }
    if (this.root !== undefined && !isInside(this.root, real)) {
      throw new SessionCommandError("forbidden", `cwd ${asked} lies outside the server's --root`);
    }
    if (!(await stat(real)).isDirectory())
      throw new SessionCommandError("invalid", `cwd: not a directory: ${asked}`, "cwd");
    return real;
  }
}

/** Whether `path` is `root` or below it (both already real paths). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}
