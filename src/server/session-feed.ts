import type { SessionSummary } from "../api/schemas.js";
import type { SessionStore } from "../store/types.js";
import { summaryBody } from "./summary-body.js";

/** What a subscriber of the session list hears after its snapshot. */
export type SessionFeedMessage =
  | { kind: "session"; session: SessionSummary }
  | { kind: "removed"; id: string };

export interface SessionFeedOptions {
  /** Changes of one session within this many ms go out as one message (a streaming turn writes many). */
  coalesceMs?: number;
  /**
   * While anyone listens, the whole registry is compared this often: it catches what this process's store
   * did not see written (another cluster node, an `import` beside the server, a removed session).
   */
  rescanMs?: number;
}

const DEFAULT_COALESCE_MS = 100;
const DEFAULT_RESCAN_MS = 2_000;

/**
 * The session list as a stream of changes: the store's writers `touch` a session, and each subscriber gets the
 * session's new summary once it differs from the one last sent. Nothing runs while nobody listens.
 */
export class SessionFeed {
  readonly #store: SessionStore;
  readonly #coalesceMs: number;
  readonly #rescanMs: number;
  readonly #listeners = new Set<(message: SessionFeedMessage) => void>();
  /** Each session's summary as last sent, as JSON. */
  readonly #sent = new Map<string, string>();
  readonly #dirty = new Set<string>();
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #rescanTimer: ReturnType<typeof setInterval> | undefined;
  #rescanning = false;

  constructor(store: SessionStore, options: SessionFeedOptions = {}) {
    this.#store = store;
    this.#coalesceMs = options.coalesceMs ?? DEFAULT_COALESCE_MS;
    this.#rescanMs = options.rescanMs ?? DEFAULT_RESCAN_MS;
  }

  /** A session's record was written. */
  touch(id: string): void {
    if (this.#listeners.size === 0) return;
    this.#dirty.add(id);
    this.#flushTimer ??= setTimeout(() => void this.#flush(), this.#coalesceMs);
  }

  /** The list as it is now, then every change through `listener` until `close`. */
  async subscribe(
    listener: (message: SessionFeedMessage) => void,
  ): Promise<{ sessions: SessionSummary[]; close: () => void }> {
    const first = this.#listeners.size === 0;
    this.#listeners.add(listener);
    const close = () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      clearInterval(this.#rescanTimer);
      clearTimeout(this.#flushTimer);
      this.#rescanTimer = undefined;
      this.#flushTimer = undefined;
      this.#sent.clear();
      this.#dirty.clear();
    };
    try {
      const sessions = (await this.#store.listSessions()).map(summaryBody);
      // the first listener's snapshot is what was sent; later ones leave it to the next change to catch up
      if (first) for (const s of sessions) this.#sent.set(s.id, JSON.stringify(s));
      this.#rescanTimer ??= setInterval(() => void this.#rescan(), this.#rescanMs);
      this.#rescanTimer.unref?.();
      return { sessions, close };
    } catch (error) {
      close();
      throw error;
    }
  }

  #send(message: SessionFeedMessage): void {
    for (const listener of this.#listeners) listener(message);
  }

  #offer(session: SessionSummary): void {
    const text = JSON.stringify(session);
    if (this.#sent.get(session.id) === text) return;
    this.#sent.set(session.id, text);
    this.#send({ kind: "session", session });
  }

  async #flush(): Promise<void> {
    this.#flushTimer = undefined;
    const ids = [...this.#dirty];
    this.#dirty.clear();
    for (const id of ids) {
      const record = await this.#store.getSession(id).catch(() => undefined);
      if (this.#listeners.size === 0) return;
      if (record !== undefined) this.#offer(summaryBody(record));
      else if (this.#sent.delete(id)) this.#send({ kind: "removed", id });
    }
  }

  async #rescan(): Promise<void> {
    if (this.#rescanning) return;
    this.#rescanning = true;
    try {
      const records = await this.#store.listSessions();
      if (this.#listeners.size === 0) return;
      const present = new Set<string>();
      for (const record of records) {
        present.add(record.id);
        this.#offer(summaryBody(record));
      }
      for (const id of [...this.#sent.keys()]) {
        if (present.has(id)) continue;
        this.#sent.delete(id);
        this.#send({ kind: "removed", id });
      }
    } catch {
      // a store that cannot list now (an outage) is asked again at the next rescan
    } finally {
      this.#rescanning = false;
    }
  }
}

/**
 * The store as the session writers see it, each registry or event write touching the feed once it is done. A
 * proxy: every other member (present or added later) is the store's own, called on the store itself.
 */
export function feedingStore(store: SessionStore, feed: SessionFeed): SessionStore {
  const after = <T>(id: string, written: Promise<T>): Promise<T> => {
    written.then(
      () => feed.touch(id),
      () => undefined,
    );
    return written;
  };
  const wrapped: Partial<SessionStore> = {
    createSession: (record) => after(record.id, store.createSession(record)),
    updateSession: (id, patch) => after(id, store.updateSession(id, patch)),
    append: (id, events) => after(id, store.append(id, events)),
  };
  // a purge is heard at once too (its removal), where the store can purge at all
  const purge = store.purgeSession?.bind(store);
  if (purge !== undefined) wrapped.purgeSession = (id) => after(id, purge(id));
  return new Proxy(store, {
    get(target, key) {
      if (typeof key === "string" && key in wrapped) return wrapped[key as keyof SessionStore];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
