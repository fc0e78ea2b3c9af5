import type { RuntimeEvent } from "../contracts/events.js";
import type { RuntimeMapper } from "../kit/mapper.js";
import { overlongLineEntry, readTranscriptLine, type TranscriptEntry } from "../kit/transcript.js";
import type { OverlongLine } from "../node/line-splitter.js";
import type { SessionPatch, SessionRecord, SessionStore } from "../store/types.js";
import { SessionSummary } from "./session-summary.js";
import { type HistorySource, historyMapper } from "./sources.js";

/** Events per append: large enough to fill a commit, small enough to hold little in memory. */
const APPEND_EVENTS = 512;

/**
 * The mapping of one session (from its first line) into batches appended to the store: the events up to the
 * stored `lastSequence` are the ones stored before and are only checked (the one at `lastSequence` must equal
 * the stored one), the rest are appended.
 */
export class FileRun {
  readonly summary = new SessionSummary();
  appended = 0;
  warningEvents = 0;
  created = false;
  /** Why the run stopped (the mapping no longer gives what is stored). */
  refusal: string | undefined;
  readonly #mapper: RuntimeMapper;
  #lineNumber = 0;
  #batch: RuntimeEvent[] = [];
  readonly #skipThrough: number;
  readonly #lastStoredJson: string | undefined;

  constructor(
    readonly store: SessionStore,
    readonly sessionId: string,
    readonly source: HistorySource,
    readonly record: SessionRecord | undefined,
    readonly maxLineBytes: number,
    lastStored: RuntimeEvent | undefined,
  ) {
    this.#mapper = historyMapper(source).create({ sessionId });
    this.#skipThrough = record?.lastSequence ?? 0;
    this.#lastStoredJson = lastStored === undefined ? undefined : JSON.stringify(lastStored);
  }

  get batchFull(): boolean {
    return this.#batch.length >= APPEND_EVENTS;
  }

  /** Maps a line; false when the mapping departs from what is stored (the run must stop). */
  line(line: string | OverlongLine): boolean {
    this.#lineNumber++;
    const entry: TranscriptEntry | undefined =
      typeof line === "string"
        ? readTranscriptLine(line, this.#lineNumber, undefined)
        : overlongLineEntry(line.head, line.bytes, this.maxLineBytes, this.#lineNumber);
    return entry === undefined || this.#take(this.#mapper.map(entry));
  }

  /** The end of a file taken as finished: what it left open is closed (the mapper's finish()). */
  finish(): boolean {
    return this.#take(this.#mapper.finish());
  }

  async flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    if (this.record === undefined && !this.created) {
      await this.store.createSession(newRecord(this.sessionId, this.source, batch[0] as RuntimeEvent));
      this.created = true;
    }
    await this.store.append(this.sessionId, batch);
    this.appended += batch.length;
  }

  /** The registry fields the events say (state, requests, title, cwd, model). */
  summaryPatch(): SessionPatch {
    const { state, openRequests, exited, title, cwd, model } = this.summary.fields;
    return {
      state,
      openRequests,
      exited,
      ...(title === undefined ? {} : { title }),
      ...(cwd === undefined ? {} : { cwd }),
      ...(model === undefined ? {} : { model }),
    };
  }

  #take(events: readonly RuntimeEvent[]): boolean {
    for (const event of events) {
      this.summary.observe(event);
      if (event.sequence === this.#skipThrough && this.#lastStoredJson !== JSON.stringify(event)) {
        this.refusal =
          "mapping it again does not give the events stored from it before (another provider-runtime version?); the stored session is kept as it is";
        return false;
      }
      if (event.sequence <= this.#skipThrough) continue;
      if (event.type === "runtime.warning") this.warningEvents++;
      this.#batch.push(event);
    }
    return true;
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
