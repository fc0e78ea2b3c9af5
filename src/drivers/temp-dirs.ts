import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A directory only this user can read (0700), in the temp dir the host sees (`TMPDIR`). Drivers make one per
 * session for whatever the agent needs (its config home, its temp files) and remove it on every exit path.
 */
export async function makePrivateDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o700);
  return dir;
}

/** A subdirectory (and its parents) with mode 0700. */
export async function makePrivateSubdir(path: string): Promise<string> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  await chmod(path, 0o700);
  return path;
}

/** A file only this user can read (0600), or run (0700) with `executable`. */
export async function writePrivateFile(path: string, text: string, executable = false): Promise<void> {
  const mode = executable ? 0o700 : 0o600;
  await writeFile(path, text, { mode });
  await chmod(path, mode);
}

/**
 * Removes the directories; never throws (a directory already gone is fine). An agent's last processes may still
 * be writing there as they exit (codex exec's sandbox makes its mount targets in TMPDIR): `rm` then meets a
 * directory that is not empty, and tries again, for up to about 3 s.
 */
export async function removeDirs(dirs: Iterable<string | undefined>): Promise<void> {
  await Promise.all(
    [...dirs].map((dir) =>
      dir === undefined
        ? undefined
        : rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }).catch(() => undefined),
    ),
  );
}

/**
 * A driver's own temp dir, removed on every path that ends the session (a crash, then the host's `stop`). Each
 * `remove()` removes it again once the removals begun before it have ended, and resolves after that: a removal
 * begun while the agent still wrote there (at a crash) may leave some of it, which the host's `stop`, after the
 * agent is gone, clears; and no caller finds the dir still there after its call resolved.
 */
export class OwnedDir {
  #path: string | undefined;
  #removal: Promise<void> = Promise.resolve();

  get path(): string | undefined {
    return this.#path;
  }

  /** Takes `path` as the dir to remove; returns it. */
  own(path: string): string {
    this.#path = path;
    return path;
  }

  remove(): Promise<void> {
    const path = this.#path;
    if (path !== undefined) this.#removal = this.#removal.then(() => removeDirs([path]));
    return this.#removal;
  }
}
