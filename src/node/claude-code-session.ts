/**
 * A Claude Code session file together with its subagents' files, read as one stream of lines in record time.
 * Claude Code 2.1.x writes each subagent to `<project>/<session>/subagents/agent-<agentId>.jsonl`; 2.0.x wrote
 * `<project>/agent-<agentId>.jsonl` beside the session file, naming the session in each record's `sessionId`.
 * Every file is in time order already, so a merge that holds one line per file keeps memory flat; the mapper
 * then sees a subagent's records between the Agent/Task call that spawned it and its result, as they happened.
 */
import { open, readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { type OverlongLine, type ReadLineOptions, readLineRecords } from "./line-source.js";

const AGENT_FILE = /^agent-.+\.jsonl$/;

/** The subagent files of a session file, sorted by name; none when there are none (or the dirs are unreadable). */
export async function subagentFilesOf(sessionFile: string): Promise<string[]> {
  const sessionId = basename(sessionFile).replace(/\.jsonl$/, "");
  const nested = join(dirname(sessionFile), sessionId, "subagents");
  const files = (await names(nested))
    .filter((name) => AGENT_FILE.test(name))
    .map((name) => join(nested, name));
  for (const name of await names(dirname(sessionFile))) {
    if (!AGENT_FILE.test(name)) continue;
    const path = join(dirname(sessionFile), name);
    if (path !== sessionFile && (await firstLine(path)).includes(`"sessionId":"${sessionId}"`))
      files.push(path);
  }
  return files.sort();
}

/**
 * The session file's lines, with the lines of its subagent files (subagentFilesOf) merged in by each record's
 * `timestamp`; a line without one stays after the line before it in its own file. On a tie the session file's
 * line comes first. Without subagent files, the session file's lines as they are (nothing is parsed here).
 * `read` gives one file's lines (`import` reads only the part of each file that ends in a line break).
 */
export async function* sessionFileLines(
  sessionFile: string,
  options: ReadLineOptions = {},
  read: (file: string) => AsyncIterable<string | OverlongLine> = (file) =>
    readLineRecords(file, undefined, options),
): AsyncGenerator<string | OverlongLine> {
  const subagents = await subagentFilesOf(sessionFile);
  if (subagents.length === 0) {
    yield* read(sessionFile);
    return;
  }
  const sources = [sessionFile, ...subagents].map((file) => ({
    lines: read(file)[Symbol.asyncIterator](),
    head: undefined as string | OverlongLine | undefined,
    time: "",
    done: false,
  }));
  const advance = async (source: (typeof sources)[number]) => {
    const next = await source.lines.next();
    if (next.done === true) {
      source.done = true;
      source.head = undefined;
      return;
    }
    source.head = next.value;
    source.time = (typeof next.value === "string" ? timeOf(next.value) : undefined) ?? source.time;
  };
  for (const source of sources) await advance(source);
  for (;;) {
    let first: (typeof sources)[number] | undefined;
    for (const source of sources)
      if (!source.done && (first === undefined || source.time < first.time)) first = source;
    if (first === undefined || first.head === undefined) return;
    yield first.head;
    await advance(first);
  }
}

/** A record's `timestamp` (ISO-8601 in UTC, so text order is time order); undefined if it has none. */
function timeOf(line: string): string | undefined {
  try {
    const record: unknown = JSON.parse(line);
    if (typeof record !== "object" || record === null) return undefined;
    const time = (record as { timestamp?: unknown }).timestamp;
    return typeof time === "string" ? time : undefined;
  } catch {
    return undefined;
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** The first 4 KiB of a file (the first record's head names its session), or "" when it cannot be read. */
async function firstLine(path: string): Promise<string> {
  try {
    const handle = await open(path, "r");
    try {
      const buffer = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.toString("utf8", 0, bytesRead).split("\n", 1)[0] ?? "";
    } finally {
      await handle.close();
    }
  } catch {
    return "";
  }
}
