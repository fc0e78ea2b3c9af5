import type { Dirent } from "node:fs";
import { opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import { type HistorySource, isSessionFileName } from "./sources.js";

/** A session file found, with the source its tree says it is (undefined: decided from its first line). */
export type ScanItem =
  | { kind: "file"; path: string; source: HistorySource | undefined }
  | { kind: "warning"; message: string };

/**
 * The session files under `path` (a directory walked depth-first in name order, or one file). Symbolic links in
 * the tree are not followed (one to a directory could loop, one to a file could be read twice): each one to a
 * directory or with a session file's name is a warning. A directory that cannot be read is one warning and the
 * walk goes on. Memory: the names of the directories still to visit and of the one being read.
 */
export async function* scanPath(path: string, source: HistorySource | undefined): AsyncGenerator<ScanItem> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    yield { kind: "warning", message: `cannot read ${path}: ${codeOf(error)}` };
    return;
  }
  if (info.isFile()) {
    yield { kind: "file", path, source };
    return;
  }
  const pending = [path];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = [];
      for await (const entry of await opendir(dir)) entries.push(entry);
    } catch (error) {
      yield { kind: "warning", message: `cannot read directory ${dir}: ${codeOf(error)}` };
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) subdirs.push(full);
      else if (entry.isFile() && matches(source, entry.name)) yield { kind: "file", path: full, source };
      else if (entry.isSymbolicLink() && (matches(source, entry.name) || (await isDirectory(full))))
        yield {
          kind: "warning",
          message: `skipped ${full}: a symbolic link (not followed; pass its target's path)`,
        };
    }
    for (let i = subdirs.length - 1; i >= 0; i--) pending.push(subdirs[i] as string);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false; // a dangling link
  }
}

/** A Claude Code subagent's file: read with its session's file, never a session of its own. */
const SUBAGENT_FILE = /^agent-.+\.jsonl$/;

/** Without a source, any `*.jsonl` but a subagent's is a candidate; its first line decides. */
function matches(source: HistorySource | undefined, name: string): boolean {
  if (SUBAGENT_FILE.test(name)) return false;
  return source === undefined ? name.endsWith(".jsonl") : isSessionFileName(source, name);
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
