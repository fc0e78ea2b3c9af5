import type { RuntimeEvent } from "../contracts/events.js";
import type {
  SessionPage,
  SessionPatch,
  SessionQuery,
  SessionRecord,
  SessionStore,
  StoreHealth,
} from "../store/types.js";

/**
 * The store as the node's LocalSessions sees it: a session it creates is stamped with this node as owner (and
 * a lease) in the same registry write, so no other node ever sees it without one.
 */
export class OwnerStampingStore implements SessionStore {
  constructor(
    readonly inner: SessionStore,
    readonly stamp: (record: SessionRecord) => SessionRecord,
    /** Told of every run of events once stored (the node saves native state at turn ends). */
    readonly appended: (sessionId: string, events: readonly RuntimeEvent[]) => void = () => undefined,
  ) {}

  createSession(record: SessionRecord): Promise<void> {
    return this.inner.createSession(this.stamp(record));
  }

  updateSession(id: string, patch: SessionPatch): Promise<void> {
    return this.inner.updateSession(id, patch);
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.inner.getSession(id);
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.inner.listSessions();
  }

  querySessions(query: SessionQuery): Promise<SessionPage> {
    if (this.inner.querySessions === undefined) throw new Error("the store cannot query sessions");
    return this.inner.querySessions(query);
  }

  purgeSession(id: string): Promise<void> {
    if (this.inner.purgeSession === undefined) throw new Error("the store cannot remove sessions");
    return this.inner.purgeSession(id);
  }

  async append(sessionId: string, events: readonly RuntimeEvent[]): Promise<void> {
    await this.inner.append(sessionId, events);
    this.appended(sessionId, events);
  }

  readEvents(sessionId: string, after: number, limit: number): Promise<RuntimeEvent[]> {
    return this.inner.readEvents(sessionId, after, limit);
  }

  follow(sessionId: string, after: number, signal: AbortSignal): AsyncIterable<RuntimeEvent> {
    return this.inner.follow(sessionId, after, signal);
  }

  health(): StoreHealth {
    return this.inner.health?.() ?? { backend: "sqlite", connected: true };
  }

  /** The shared store outlives a node's LocalSessions: closing is the server's, once. */
  async close(): Promise<void> {}
}

/** A view of the store whose registry lists one session: the server's restore, run for that one alone. */
export function oneSessionView(store: SessionStore, record: SessionRecord): SessionStore {
  return {
    createSession: (r) => store.createSession(r),
    updateSession: (id, patch) => store.updateSession(id, patch),
    getSession: (id) => store.getSession(id),
    listSessions: async () => [record],
    append: (id, events) => store.append(id, events),
    readEvents: (id, after, limit) => store.readEvents(id, after, limit),
    follow: (id, after, signal) => store.follow(id, after, signal),
    close: async () => {},
  };
}
