import { stat } from "node:fs/promises";
import { sessionFileLines, subagentFilesOf } from "../node/claude-code-session.js";
import type { OverlongLine } from "../node/line-splitter.js";
import { completeLength, completeLines, type LineChunk } from "./complete-lines.js";
import type { HistorySource } from "./sources.js";

/** The files one session is read from: a rollout alone; a Claude Code session file with its subagents' files. */
export interface SessionParts {
  main: string;
  subagents: string[];
  /** The newest modification time of any part: a part written since the last import changes it. */
  mtimeMs: number;
}

export async function sessionParts(
  main: string,
  source: HistorySource,
  mainMtimeMs: number,
): Promise<SessionParts> {
  const subagents = source === "claude-code" ? await subagentFilesOf(main) : [];
  let mtimeMs = mainMtimeMs;
  for (const file of subagents) {
    try {
      mtimeMs = Math.max(mtimeMs, (await stat(file)).mtimeMs);
    } catch {
      // gone since it was listed: read as empty below
    }
  }
  return { main, subagents, mtimeMs };
}

const MERGED_CHUNK_LINES = 256;

/**
 * The session's lines in the order `normalize` reads them, only the part of each file that ends in a line
 * break (`mainLength` of the main file, as measured by the caller): the main file alone in chunks, or merged
 * with its subagents' files by record time (sessionFileLines), grouped into chunks.
 */
export async function* sessionChunks(
  parts: SessionParts,
  mainLength: number,
  maxLineBytes: number,
): AsyncGenerator<LineChunk> {
  if (parts.subagents.length === 0) {
    yield* completeLines(parts.main, mainLength, maxLineBytes);
    return;
  }
  const read = (file: string) =>
    file === parts.main
      ? flatten(completeLines(file, mainLength, maxLineBytes))
      : completeFileLines(file, maxLineBytes);
  let lines: (string | OverlongLine)[] = [];
  let bytes = 0;
  for await (const line of sessionFileLines(parts.main, { maxLineBytes }, read)) {
    lines.push(line);
    bytes += typeof line === "string" ? line.length + 1 : line.bytes + 1;
    if (lines.length >= MERGED_CHUNK_LINES) {
      yield { lines, bytes };
      lines = [];
      bytes = 0;
    }
  }
  if (lines.length > 0) yield { lines, bytes };
}

async function* completeFileLines(file: string, maxLineBytes: number): AsyncGenerator<string | OverlongLine> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return;
  }
  yield* flatten(completeLines(file, await completeLength(file, size), maxLineBytes));
}

async function* flatten(chunks: AsyncIterable<LineChunk>): AsyncGenerator<string | OverlongLine> {
  for await (const chunk of chunks) yield* chunk.lines;
}
