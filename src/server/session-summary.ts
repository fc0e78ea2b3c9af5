import type { SessionState } from "../contracts/enums.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { BoundedMap } from "../kit/bounded-map.js";
import type { SessionPatch, SessionRecord } from "../store/types.js";

const TITLE_LENGTH = 80;

/** A prompt as a list title: one line, at most 80 characters. */
export function titleOf(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= TITLE_LENGTH ? line : `${line.slice(0, TITLE_LENGTH - 1)}…`;
}

/**
 * The registry summary of a session, kept in step with its stored events: state, last sequence, open requests,
 * whether the agent has exited, and the native id a resume needs. Bounded: it holds the ids of open requests only.
 */
export class SessionSummary {
  #state: SessionState;
  #lastSequence: number;
  #updatedAt: string;
  #exited: boolean;
  #resumeId: string | undefined;
  readonly #openRequests = new BoundedMap<string, true>(10_000);
  /** Something but the last sequence and its time changed since the last `patch()`. */
  #changed = true;

  constructor(record: SessionRecord) {
    this.#state = record.state;
    this.#lastSequence = record.lastSequence;
    this.#updatedAt = record.updatedAt;
    this.#exited = record.exited;
    this.#resumeId = record.native?.resumeId;
  }

  get lastSequence(): number {
    return this.#lastSequence;
  }

  get resumeId(): string | undefined {
    return this.#resumeId;
  }

  isOpenRequest(requestId: string): boolean {
    return this.#openRequests.has(requestId);
  }

  /** Whether the record needs more than its last sequence and `updatedAt` moved since the last `patch()`. */
  get changed(): boolean {
    return this.#changed;
  }

  observe(event: RuntimeEvent): void {
    this.#lastSequence = event.sequence;
    this.#updatedAt = event.createdAt;
    const resumeId = this.#resumeId;
    const moved = this.#apply(event);
    this.#resumeId ??= event.providerRefs?.providerThreadId;
    if (moved || this.#resumeId !== resumeId) this.#changed = true;
  }

  /** The summary fields `event` moves; false for the events that move none (most: deltas, items). */
  #apply(event: RuntimeEvent): boolean {
    switch (event.type) {
      case "session.state.changed":
        this.#state = event.payload.state;
        return true;
      case "session.started":
        this.#exited = false;
        // A fork's agent may name the parent's thread first (Codex loads it to copy it): the fork's own is the one
        // its start opened, or the next one started.
        if (event.payload.forkedFrom !== undefined) this.#resumeId = forkThreadOf(event.payload.resume);
        return true;
      case "session.exited":
        this.#exited = true;
        this.#state = event.payload.exitKind === "error" ? "error" : "stopped";
        this.#openRequests.clear();
        return true;
      case "request.opened":
        this.#openRequests.set(event.requestId, true);
        return true;
      case "request.resolved":
        this.#openRequests.release(event.requestId);
        return true;
      case "thread.started":
        this.#resumeId ??= event.payload.providerThreadId;
        return true;
      default:
        return false;
    }
  }

  /** The registry fields this summary owns, for `updateSession`. */
  patch(native: SessionRecord["native"]): SessionPatch {
    this.#changed = false;
    const patch: SessionPatch = {
      state: this.#state,
      lastSequence: this.#lastSequence,
      updatedAt: this.#updatedAt,
      openRequests: this.#openRequests.size,
      exited: this.#exited,
    };
    const resumeId = this.#resumeId;
    if (resumeId !== undefined && native?.resumeId !== resumeId) patch.native = { ...native, resumeId };
    return patch;
  }
}

function forkThreadOf(resume: unknown): string | undefined {
  const id = (resume as { providerThreadId?: unknown } | undefined)?.providerThreadId;
  return typeof id === "string" && id.length > 0 ? id : undefined;
}
