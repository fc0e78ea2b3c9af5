import { lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

/** A state dir larger than this is not saved (a warning says so): Codex's and Claude's are far smaller. */
export const MAX_STATE_BYTES = 256 * 1024 * 1024;

/**
 * Left out: databases (copied while their agent writes they are not consistent, and Codex's index holds absolute
 * paths into the old node's DATA: from the rollout files, the source of truth, it builds a new one) and locks.
 */
const SKIPPED = /(\.sqlite(-wal|-shm|-journal)?|\.lock)$/;

interface Entry {
  path: string;
  mode: number;
  size: number;
}

/**
 * A session's native state dir as one gzipped blob: for each regular file a JSON header line `{path, mode, size}`
 * and its bytes. Symlinks, sockets and the like are left out (an agent's state needs none, and a link restored on
 * another machine could point anywhere).
 */
export async function packDir(dir: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const walk = async (at: string): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(at)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(at, name);
      const info = await lstat(path).catch(() => undefined);
      if (info === undefined) continue;
      if (info.isDirectory()) await walk(path);
      else if (info.isFile() && !SKIPPED.test(name)) {
        const bytes = await readFile(path).catch(() => undefined);
        if (bytes === undefined) continue;
        total += bytes.length;
        if (total > MAX_STATE_BYTES)
          throw new Error(`the state dir ${dir} is larger than ${MAX_STATE_BYTES} bytes`);
        const entry: Entry = {
          path: relative(dir, path).split(sep).join("/"),
          mode: info.mode & 0o700,
          size: bytes.length,
        };
        chunks.push(Buffer.from(`${JSON.stringify(entry)}\n`), bytes);
      }
    }
  };
  await walk(dir);
  return gzipSync(Buffer.concat(chunks));
}

/** Replaces `dir` with what `packDir` packed; a path leading out of `dir` is refused. */
export async function unpackDir(blob: Uint8Array, dir: string): Promise<number> {
  const data = gunzipSync(blob, { maxOutputLength: MAX_STATE_BYTES + 1024 * 1024 });
  const files: Array<{ entry: Entry; bytes: Buffer }> = [];
  for (let offset = 0; offset < data.length; ) {
    const newline = data.indexOf(0x0a, offset);
    if (newline < 0) throw new Error("a truncated state archive");
    const entry = JSON.parse(data.subarray(offset, newline).toString("utf8")) as Entry;
    const start = newline + 1;
    if (!Number.isSafeInteger(entry.size) || entry.size < 0 || start + entry.size > data.length)
      throw new Error("a truncated state archive");
    const target = resolve(dir, entry.path);
    if (typeof entry.path !== "string" || !target.startsWith(`${resolve(dir)}${sep}`))
      throw new Error(`a state archive entry leads out of its dir: ${JSON.stringify(entry.path)}`);
    files.push({ entry, bytes: data.subarray(start, start + entry.size) });
    offset = start + entry.size;
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const { entry, bytes } of files) {
    const target = resolve(dir, entry.path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, bytes, { mode: (entry.mode & 0o700) | 0o600 });
  }
  return files.length;
}
