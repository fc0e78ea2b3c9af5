import { hash } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { readTranscriptLine } from "../kit/transcript.js";
import type { SessionStore } from "../store/types.js";
import { completeLength, completeLines } from "./complete-lines.js";
import { FileRun } from "./file-run.js";
import { codeOf } from "./scan.js";
import { sessionChunks, sessionParts } from "./session-parts.js";
import {
  type HistorySource,
  isHistorySource,
  looksLike,
  MissingSourceError,
  sniffSource,
} from "./sources.js";

export type FileStatus = "new" | "grown" | "unchanged" | "skipped";

export interface FileResult {
  path: string;
  status: FileStatus;
  source?: HistorySource;
  sessionId?: string;
  /** Events appended by this run. */
  events: number;
  /** `runtime.warning` events among them (malformed lines, unknown kinds). */
  warningEvents: number;
  /** Why the file was skipped or only partly imported; each is one import warning. */
  warnings: string[];
  /** Bytes at the end still without their line break: read on a later run. */
  pendingBytes: number;
  /** The file's source has no mapper in this build (see historyMapper). */
  missingSource?: HistorySource;
}

export interface FileImportOptions {
  maxLineBytes: number;
  /**
   * A session none of whose files was written for this long is taken as finished: what its end left open is
   * closed (a Claude Code session file never writes the end of its last turn). Default one hour.
   */
  settledAfterMs?: number;
  /** The time now (injected for tests). */
  now?: () => number;
  /** Bytes of the file read so far (progress). */
  onBytes?: (bytes: number) => void;
  /** Called once per line read (the importer's HeapGuard). */
  onLine?: () => void;
}

export const SETTLED_AFTER_MS = 60 * 60 * 1000;

/** The canonical id of an imported file: stable per (real) path, so every run finds the same session. */
export function importedSessionId(realPath: string): string {
  return `ses_import_${hash("sha256", realPath, "hex").slice(0, 24)}`;
}

/**
 * Imports one session file (with its subagents' files, for Claude Code) into the store, or what it gained
 * since the last run.
 *
 * Incremental by re-mapping: a grown file is mapped again from its first line, because a mapper's state (open
 * turns, items, requests) comes from everything before, and only the events past the stored `lastSequence` are
 * appended. That these are the right events rests on mappers being deterministic and streaming: the events of
 * a line depend only on the lines before it (timestamps come from the records, never the clock), so mapping a
 * longer file repeats the shorter one's events and then goes on. It is checked: the re-mapped event at the
 * stored `lastSequence` must equal the stored one, else the file is left as it was, with a warning.
 *
 * The end of a file is no end of its session while it may still be written, so `finish()` (which closes what
 * the input left open) runs only once the session has settled (SETTLED_AFTER_MS); the record then says
 * `closed`, and a closed session that grows again is a warning (its stored end cannot be taken back).
 */
export async function importFile(
  store: SessionStore,
  path: string,
  given: HistorySource | undefined,
  options: FileImportOptions,
): Promise<FileResult> {
  const result: FileResult = {
    path,
    status: "skipped",
    events: 0,
    warningEvents: 0,
    warnings: [],
    pendingBytes: 0,
  };
  const skip = (warning: string): FileResult => ({ ...result, warnings: [...result.warnings, warning] });
  let real: string;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    real = await realpath(path);
    info = await stat(real);
  } catch (error) {
    return skip(`cannot read ${path}: ${codeOf(error)}`);
  }
  const sessionId = importedSessionId(real);
  result.sessionId = sessionId;
  const record = await store.getSession(sessionId);
  const before = record?.importedFrom;
  if (before !== undefined && info.size < before.bytes)
    return skip(`${path} is shorter than when it was imported (rewritten?); the stored session is kept`);

  // a file imported before: its source is known, and a file not written since is not read at all
  const known = record !== undefined && isHistorySource(record.provider) ? record.provider : undefined;
  const now = options.now?.() ?? Date.now();
  const settledAfter = options.settledAfterMs ?? SETTLED_AFTER_MS;
  if (before !== undefined && known !== undefined) {
    const parts = await sessionParts(real, given ?? known, info.mtimeMs);
    const settled = now - parts.mtimeMs >= settledAfter;
    if (before.mtimeMs === parts.mtimeMs && (before.closed === true || !settled))
      return { ...result, status: "unchanged", source: known, pendingBytes: info.size - before.bytes };
    if (before.closed === true)
      return skip(
        `${path} was written again after an import took it as finished (closing its last turn); its new lines are not imported`,
      );
  }

  let length: number;
  try {
    length = await completeLength(real, info.size);
  } catch (error) {
    return skip(`cannot read ${path}: ${codeOf(error)}`);
  }
  result.pendingBytes = info.size - length;
  if (length === 0) return result; // empty, or a first line still being written

  const first = known === undefined ? await firstRecord(real, length, options.maxLineBytes) : undefined;
  const source = given ?? known ?? sniffSource(first);
  if (source === undefined || (known === undefined && !looksLike(source, first))) {
    const what = given === undefined ? "a Claude Code or Codex session file" : `a ${given} session file`;
    return skip(`${path} is not ${what} (its first line does not look like one); skipped`);
  }
  result.source = source;
  const parts = await sessionParts(real, source, info.mtimeMs);
  const settled = now - parts.mtimeMs >= settledAfter;

  const lastSequence = record?.lastSequence ?? 0;
  const [lastStored] = lastSequence > 0 ? await store.readEvents(sessionId, lastSequence - 1, 1) : [];
  let run: FileRun;
  try {
    run = new FileRun(store, sessionId, source, record, options.maxLineBytes, lastStored);
  } catch (error) {
    if (!(error instanceof MissingSourceError)) throw error;
    return { ...skip(error.message), missingSource: source };
  }
  const done = (status: FileStatus): FileResult => ({
    ...result,
    status,
    events: run.appended,
    warningEvents: run.warningEvents,
    warnings: run.refusal === undefined ? result.warnings : [...result.warnings, `${path}: ${run.refusal}`],
  });
  try {
    for await (const chunk of sessionChunks(parts, length, options.maxLineBytes)) {
      for (const line of chunk.lines) {
        options.onLine?.();
        if (!run.line(line)) return done("skipped");
      }
      if (run.batchFull) await run.flush();
      options.onBytes?.(chunk.bytes);
    }
    if (settled && !run.finish()) return done("skipped");
    await run.flush();
  } catch (error) {
    await run.flush().catch(() => undefined);
    return { ...done("skipped"), warnings: [...result.warnings, `cannot read ${path}: ${codeOf(error)}`] };
  }
  if (run.created || record !== undefined)
    await store.updateSession(sessionId, {
      ...run.summaryPatch(),
      importedFrom: {
        path: real,
        bytes: length,
        mtimeMs: parts.mtimeMs,
        ...(settled ? { closed: true } : {}),
      },
    });
  return done(record === undefined ? "new" : run.appended > 0 ? "grown" : "unchanged");
}

/** The first complete line's record (undefined when it is not JSON). */
async function firstRecord(path: string, length: number, maxLineBytes: number): Promise<unknown> {
  for await (const chunk of completeLines(path, length, maxLineBytes))
    for (const line of chunk.lines) {
      if (typeof line !== "string") return undefined;
      const entry = readTranscriptLine(line, 1, undefined);
      return entry?.kind === "message" ? entry.msg : undefined;
    }
  return undefined;
}
