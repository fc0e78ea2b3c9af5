import { hash } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import type { RuntimeEvent } from "../contracts/events.js";
import type { RuntimeMapper } from "../kit/mapper.js";
import { overlongLineEntry, readTranscriptLine, type TranscriptEntry } from "../kit/transcript.js";
import type { OverlongLine } from "../node/line-splitter.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { completeLength, completeLines } from "./complete-lines.js";
import { codeOf } from "./scan.js";
import { SessionSummary } from "./session-summary.js";
import {
  type HistorySource,
  historyMapper,
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
  /** Bytes of the file read so far (progress). */
  onBytes?: (bytes: number) => void;
  /** Called once per line read (the importer's HeapGuard). */
  onLine?: () => void;
}

/** Events per append: large enough to fill a commit, small enough to hold little in memory. */
const APPEND_EVENTS = 512;

/** The canonical id of an imported file: stable per (real) path, so every run finds the same session. */
export function importedSessionId(realPath: string): string {
  return `ses_import_${hash("sha256", realPath, "hex").slice(0, 24)}`;
}

/**
 * Imports one session file into the store, or what it gained since the last run.
 *
 * Incremental by re-mapping: a grown file is mapped again from its first line, because a mapper's state (open
 * turns, items, requests) comes from everything before, and only the events past the stored `lastSequence` are
 * appended. That these are the right events rests on mappers being deterministic and streaming: the events of
 * a line depend only on the lines before it (timestamps come from the records, never the clock), so mapping a
 * longer file repeats the shorter one's events and then goes on. It is checked: the re-mapped event at the
 * stored `lastSequence` must equal the stored one, else (a provider-runtime that maps differently) the file is
 * left as it was, with a warning. `finish()` is not called: it closes what the input left open, and the end of a
 * file being written is no end of the session (its events would contradict the lines still to come).
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
  let real: string;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    real = await realpath(path);
    info = await stat(real);
  } catch (error) {
    result.warnings.push(`cannot read ${path}: ${codeOf(error)}`);
    return result;
  }
  const sessionId = importedSessionId(real);
  const record = await store.getSession(sessionId);
  const before = record?.importedFrom;
  if (before !== undefined && info.size < before.bytes) {
    result.warnings.push(
      `${path} is shorter than when it was imported (rewritten?); the stored session is kept`,
    );
    return result;
  }
  if (before !== undefined && before.mtimeMs === info.mtimeMs) {
    // not written since: at most the same unfinished last line as then
    const unchanged: FileResult = {
      ...result,
      status: "unchanged",
      sessionId,
      pendingBytes: info.size - before.bytes,
    };
    if (record !== undefined && isHistorySource(record.provider)) unchanged.source = record.provider;
    return unchanged;
  }
  let length: number;
  try {
    length = await completeLength(real, info.size);
  } catch (error) {
    result.warnings.push(`cannot read ${path}: ${codeOf(error)}`);
    return result;
  }
  result.pendingBytes = info.size - length;
  if (length === 0) return result; // empty, or a first line still being written

  const lastSequence = record?.lastSequence ?? 0;
  const [lastStored] = lastSequence > 0 ? await store.readEvents(sessionId, lastSequence - 1, 1) : [];
  const run = new FileRun(store, sessionId, record, given, path, options.maxLineBytes, lastStored);
  try {
    for await (const chunk of completeLines(real, length, options.maxLineBytes)) {
      for (const line of chunk.lines) {
        options.onLine?.();
        if (!run.line(line)) return run.result(result, "skipped");
      }
      if (run.batchFull) await run.flush();
      options.onBytes?.(chunk.bytes);
    }
    await run.flush();
  } catch (error) {
    if (error instanceof MissingSourceError) {
      result.warnings.push(error.message);
      if (run.source !== undefined) result.missingSource = run.source;
      return result;
    }
    result.warnings.push(`cannot read ${path}: ${codeOf(error)}`);
    return run.result(result, "skipped");
  }
  if (run.created || record !== undefined)
    await store.updateSession(sessionId, {
      ...summaryPatch(run.summary),
      importedFrom: { path: real, bytes: length, mtimeMs: info.mtimeMs },
    });
  return run.result(result, record === undefined ? "new" : run.appended > 0 ? "grown" : "unchanged");
}

/** The mapping of one file, line by line, into batches appended to the store. */
class FileRun {
  readonly summary = new SessionSummary();
  appended = 0;
  warningEvents = 0;
  created = false;
  source: HistorySource | undefined;
  #mapper: RuntimeMapper | undefined;
  #lineNumber = 0;
  #batch: RuntimeEvent[] = [];
  readonly #skipThrough: number;
  #warning: string | undefined;
  /** The stored event at `#skipThrough`, which the same sequence of the new mapping must equal. */
  readonly #lastStoredJson: string | undefined;

  constructor(
    readonly store: SessionStore,
    readonly sessionId: string,
    readonly record: SessionRecord | undefined,
    readonly given: HistorySource | undefined,
    readonly path: string,
    readonly maxLineBytes: number,
    lastStored: RuntimeEvent | undefined,
  ) {
    this.#skipThrough = record?.lastSequence ?? 0;
    this.#lastStoredJson = lastStored === undefined ? undefined : JSON.stringify(lastStored);
    this.source = given;
  }

  /** Maps a line; false when the file is not to be imported (another format, a mapping that changed). */
  get batchFull(): boolean {
    return this.#batch.length >= APPEND_EVENTS;
  }

  line(line: string | OverlongLine): boolean {
    this.#lineNumber++;
    const entry: TranscriptEntry | undefined =
      typeof line === "string"
        ? readTranscriptLine(line, this.#lineNumber, undefined)
        : overlongLineEntry(line.head, line.bytes, this.maxLineBytes, this.#lineNumber);
    if (entry === undefined) return true;
    if (this.#mapper === undefined && !this.#start(entry)) return false;
    for (const event of (this.#mapper as RuntimeMapper).map(entry)) {
      this.summary.observe(event);
      if (event.sequence === this.#skipThrough && !this.#sameAsStored(event)) return false;
      if (event.sequence <= this.#skipThrough) continue;
      if (event.type === "runtime.warning") this.warningEvents++;
      this.#batch.push(event);
    }
    return true;
  }

  async flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    if (this.record === undefined && !this.created) {
      await this.store.createSession(
        newRecord(this.sessionId, this.source as HistorySource, batch[0] as RuntimeEvent),
      );
      this.created = true;
    }
    await this.store.append(this.sessionId, batch);
    this.appended += batch.length;
  }

  result(base: FileResult, status: FileStatus): FileResult {
    const out: FileResult = {
      ...base,
      status,
      sessionId: this.sessionId,
      events: this.appended,
      warningEvents: this.warningEvents,
    };
    if (this.source !== undefined) out.source = this.source;
    if (this.#warning !== undefined) out.warnings = [...base.warnings, this.#warning];
    return out;
  }

  /** The first record decides the source (or confirms the one given) and starts the mapper. */
  #start(entry: TranscriptEntry): boolean {
    const first = entry.kind === "message" ? entry.msg : undefined;
    const source = this.given ?? sniffSource(first);
    if (source === undefined || !looksLike(source, first)) {
      const what =
        this.given === undefined ? "a Claude Code or Codex session file" : `a ${this.given} session file`;
      this.#warning = `${this.path} is not ${what} (its first line does not look like one); skipped`;
      return false;
    }
    this.source = source;
    this.#mapper = historyMapper(source).create({ sessionId: this.sessionId });
    return true;
  }

  #sameAsStored(event: RuntimeEvent): boolean {
    if (this.#lastStoredJson === JSON.stringify(event)) return true;
    this.#warning = `${this.path}: mapping it again does not give the events stored from it before (another provider-runtime version?); the stored session is kept as it is`;
    return false;
  }
}

function newRecord(id: string, source: HistorySource, first: RuntimeEvent): SessionRecord {
  return {
    id,
    provider: source,
    origin: "import",
    createdAt: first.createdAt,
    updatedAt: first.createdAt,
    state: "ready",
    lastSequence: 0,
    openRequests: 0,
    exited: false,
  };
}

function summaryPatch(summary: SessionSummary) {
  const { state, openRequests, exited, title, cwd, model } = summary.fields;
  return {
    state,
    openRequests,
    exited,
    ...(title === undefined ? {} : { title }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(model === undefined ? {} : { model }),
  };
}
