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

/** Removes the directories; never throws (a directory already gone is fine). */
export async function removeDirs(dirs: Iterable<string | undefined>): Promise<void> {
  await Promise.all(
    [...dirs].map((dir) =>
      dir === undefined ? undefined : rm(dir, { recursive: true, force: true }).catch(() => undefined),
    ),
  );
}
