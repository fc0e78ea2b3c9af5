import type { RuntimeEvent } from "../contracts/events.js";
import { AppendBuffer, type BufferLimits, DEFAULT_BUFFER_LIMITS } from "./jetstream/append-buffer.js";
import { hasEventTag, type MessageCheck, trustEveryMessage } from "./jetstream/event-auth.js";
import { type EncodedEvent, encodeEvent } from "./jetstream/event-codec.js";
import type { MessageAuth } from "./jetstream/message-auth.js";
import type { NatsCredentials } from "./jetstream/nats-credentials.js";
import { NatsLink } from "./jetstream/nats-link.js";
import { promptsAfter, queryRegistry } from "./jetstream/registry-search.js";
import { SessionRegistry } from "./jetstream/session-registry.js";
import { SessionWriter } from "./jetstream/session-writer.js";
import { followSubject, readSubject } from "./jetstream/subject-reader.js";
import type {
  SessionPage,
  SessionPatch,
  SessionQuery,
  SessionRecord,
  SessionStore,
  StoreHealth,
} from "./types.js";

export interface JetStreamStoreOptions {
  /** NATS server URL(s), e.g. `nats://127.0.0.1:4222`, without credentials (see parseNatsServers). */
  servers: string | string[];
  /** User/password or token, `.creds` or nkey seed, TLS files. */
  credentials?: NatsCredentials;
  /**
   * The cluster secret: every event message and registry record written is tagged with it, and what is read
   * without a good tag is dropped (`onForged` is told). Without it nothing is tagged or checked.
   */
  auth?: MessageAuth;
  /** Told of each dropped message or record (a reader may tell of one message more than once). */
  onForged?: (report: ForgedReport) => void;
  /** Replicas of the stream, the KV bucket and the object store (a NATS cluster: 3); default 1. */
  replicas?: number;
  /** The deployment's stream (one per deployment); also names the KV bucket `<stream>_sessions`. */
  stream?: string;
  /** Subjects are `<prefix>.events.<sessionId>`; by default the stream name in lower case. */
  subjectPrefix?: string;
  /** How long JetStream remembers a message id to drop a retried publish (default 10 minutes). */
  duplicateWindowMs?: number;
  /** What an outage may buffer before `append` waits (default 100,000 events or 64 MiB). */
  bufferLimits?: BufferLimits;
  /** How long `close` waits for buffered events to reach JetStream (default 5 s). */
  closeTimeoutMs?: number;
  /** The connection's name in NATS monitoring. */
  connectionName?: string;
}

export const DEFAULT_STREAM = "PROVIDER_RUNTIME";

/** Something on the bus that failed the cluster secret's check: where it was, so the session can be warned. */
export interface ForgedReport {
  kind: "event" | "registry";
  sessionId: string;
  /** The stream sequence of the event message, or the registry entry's revision. */
  at: number;
}
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** Past this many writers, the idle ones are dropped (a busy one never is: two writers of one session would race). */
const IDLE_WRITERS = 10_000;

/**
 * The SessionStore on NATS JetStream, for several `serve` processes sharing one log (DESIGN.md §10): every
 * session's events in the deployment's stream (file storage) on subject `<prefix>.events.<sessionId>`, the event id
 * (and the run of events a message carries, see event-codec.ts) as `Nats-Msg-Id`, the registry in the KV bucket
 * `<stream>_sessions`.
 *
 * Guarantees: at-least-once publish (each message is retried until acknowledged), exactly-once stored (message id
 * de-duplication plus an expected-last-subject-sequence check, see SessionWriter), ordered per session. While NATS
 * is unreachable, `append` accepts events into a bounded buffer and resolves (the agents keep running; `health()`
 * says so); they are published in order when NATS is back. Only `close()` during an outage that outlasts
 * `closeTimeoutMs` leaves buffered events unpublished, and it says how many.
 *
 * Native records are not stored apart: each event keeps its `raw` (as appended), so a native record is in the
 * stream once per event it produced, as in the events the SQLite store returns.
 */
export class JetStreamStore implements SessionStore {
  readonly stream: string;
  readonly subjectPrefix: string;
  readonly #buffer: AppendBuffer;
  readonly #writers = new Map<string, SessionWriter>();
  /** Appends waiting for their events to be stored; resolved early when an outage begins. */
  readonly #waiting = new Set<() => void>();
  #closed = false;

  private constructor(
    readonly link: NatsLink,
    readonly registry: SessionRegistry,
    readonly options: JetStreamStoreOptions,
    /** The stream's replicas as configured (by this node or its operator). */
    readonly streamReplicas = 1,
  ) {
    this.stream = options.stream ?? DEFAULT_STREAM;
    this.subjectPrefix = options.subjectPrefix ?? this.stream.toLowerCase();
    this.#buffer = new AppendBuffer(options.bufferLimits ?? DEFAULT_BUFFER_LIMITS);
    link.onChange((up) => {
      if (up) return;
      for (const resolve of this.#waiting) resolve();
      this.#waiting.clear();
    });
  }

  /** Connects and makes sure the stream and the bucket exist (creating them on first start). */
  static async open(options: JetStreamStoreOptions): Promise<JetStreamStore> {
    const stream = options.stream ?? DEFAULT_STREAM;
    if (!NAME.test(stream))
      throw new Error(`stream name ${JSON.stringify(stream)}: use letters, digits, - and _`);
    const prefix = options.subjectPrefix ?? stream.toLowerCase();
    if (!NAME.test(prefix))
      throw new Error(`subject prefix ${JSON.stringify(prefix)}: use letters, digits, - and _`);
    const link = await NatsLink.open({
      servers: options.servers,
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
      ...(options.connectionName === undefined ? {} : { name: options.connectionName }),
    });
    try {
      const replicas = options.replicas ?? 1;
      const streamReplicas = await ensureStream(
        link,
        stream,
        prefix,
        options.duplicateWindowMs ?? 10 * 60_000,
        replicas,
      );
      const kv = await openBucket(link, `${stream}_sessions`, replicas);
      const onForged = options.onForged ?? (() => undefined);
      const registry = new SessionRegistry(link, kv, undefined, options.auth, (sessionId, at) =>
        onForged({ kind: "registry", sessionId, at }),
      );
      return new JetStreamStore(link, registry, options, streamReplicas);
    } catch (error) {
      await link.close();
      throw error;
    }
  }

  health(): StoreHealth {
    const health: StoreHealth = {
      backend: "jetstream",
      connected: this.link.up,
      buffered: { events: this.#buffer.events, bytes: this.#buffer.bytes },
    };
    if (this.link.downSince !== undefined) health.downSince = this.link.downSince;
    if (this.link.lastError !== undefined) health.lastError = this.link.lastError;
    return health;
  }

  /** Called with `false` when NATS becomes unreachable and `true` when it is back. */
  onHealthChange(listener: (connected: boolean) => void): () => void {
    return this.link.onChange(listener);
  }

  /** Which messages of a session's subject are ours (tagged with the cluster secret); each forged one reported. */
  check(sessionId: string): MessageCheck {
    const auth = this.options.auth;
    if (auth === undefined) return trustEveryMessage;
    const subject = this.subject(sessionId);
    const onForged = this.options.onForged;
    return (message) => {
      if (hasEventTag(auth, subject, message)) return true;
      onForged?.({ kind: "event", sessionId, at: message.seq });
      return false;
    };
  }

  subject(sessionId: string): string {
    if (!SESSION_ID.test(sessionId))
      throw new Error(`session id ${JSON.stringify(sessionId)} is not a NATS token`);
    return `${this.subjectPrefix}.events.${sessionId}`;
  }

  createSession(record: SessionRecord): Promise<void> {
    this.subject(record.id);
    return this.registry.create(record);
  }

  updateSession(id: string, patch: SessionPatch): Promise<void> {
    return this.registry.update(id, patch);
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.registry.get(id);
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.registry.list();
  }

  /** Filters and words over the registry's records (their titles and the prompts each record keeps). */
  async querySessions(query: SessionQuery): Promise<SessionPage> {
    return queryRegistry(await this.registry.list(), query);
  }

  /** The session's messages purged from the stream, then its registry key. */
  async purgeSession(id: string): Promise<void> {
    const subject = this.subject(id);
    await this.#writers.get(id)?.flushed();
    this.#writers.delete(id);
    await this.link.jsm.streams.purge(this.stream, { filter: subject });
    await this.registry.remove(id);
  }

  /**
   * Cluster leases: makes `node` the session's owner until `leaseUntil` unless another node's lease holds at
   * `now` (compare-and-set); the claimed record, or undefined.
   */
  claimSession(
    id: string,
    node: string,
    leaseUntil: string,
    now: string,
  ): Promise<SessionRecord | undefined> {
    return this.registry.claim(id, node, leaseUntil, now);
  }

  releaseSession(id: string, node: string, now: string): Promise<void> {
    return this.registry.release(id, node, now);
  }

  async append(sessionId: string, events: readonly RuntimeEvent[]): Promise<void> {
    if (this.#closed) throw new Error("the store is closed");
    if (events.length === 0) return;
    const subject = this.subject(sessionId);
    const encoded = events.map(encodeEvent);
    const prompts = promptsAfter(await this.#promptsHolder(sessionId, events), events);
    if (prompts !== undefined) await this.registry.update(sessionId, { prompts });
    let bytes = 0;
    for (const event of encoded) bytes += event.json.length;
    await this.#buffer.reserve(encoded.length, bytes);
    let writer = this.#writers.get(sessionId);
    if (writer === undefined) {
      if (this.#writers.size >= IDLE_WRITERS) this.#dropIdleWriters();
      writer = new SessionWriter(
        subject,
        this.stream,
        this.link,
        this.#buffer,
        this.options.auth,
        this.check(sessionId),
      );
      this.#writers.set(sessionId, writer);
    }
    if (!this.link.up) {
      writer.enqueue(encoded, () => {});
      return;
    }
    await new Promise<void>((resolve) => {
      let left = encoded.length;
      const done = () => {
        this.#waiting.delete(done);
        resolve();
      };
      this.#waiting.add(done);
      writer.enqueue(encoded, (_: EncodedEvent) => {
        if (--left === 0) done();
      });
    });
  }

  /** The record whose prompts `events` add to: read only when they hold a prompt (once a turn). */
  async #promptsHolder(
    sessionId: string,
    events: readonly RuntimeEvent[],
  ): Promise<SessionRecord | undefined> {
    if (!events.some((event) => event.type === "item.completed")) return undefined;
    return this.registry.get(sessionId).catch(() => undefined);
  }

  readEvents(sessionId: string, after: number, limit: number): Promise<RuntimeEvent[]> {
    return readSubject(this.link, this.#address(sessionId), after, limit);
  }

  #address(sessionId: string) {
    return {
      stream: this.stream,
      subject: this.subject(sessionId),
      check: this.check(sessionId),
      replicas: this.streamReplicas,
    };
  }

  follow(sessionId: string, after: number, signal: AbortSignal): AsyncIterable<RuntimeEvent> {
    return followSubject(this.link, this.#address(sessionId), after, signal);
  }

  /** Resolves once every event appended so far is stored in JetStream, and every registry patch written. */
  async flushed(): Promise<void> {
    await Promise.all([...this.#writers.values()].map((writer) => writer.flushed()));
    await this.registry.settle();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const timeoutMs = this.options.closeTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.flushed(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.registry.close();
    const unpublished = this.#buffer.events;
    await this.link.close();
    if (unpublished > 0)
      throw new Error(
        `closed with ${unpublished} events not yet in JetStream (NATS unreachable for ${timeoutMs} ms)`,
      );
  }

  #dropIdleWriters(): void {
    for (const [id, writer] of this.#writers) if (writer.idle) this.#writers.delete(id);
  }
}

/**
 * The registry's KV bucket, made on first start (file storage, one value per key); an existing one is used as it is,
 * so an operator may make both beforehand with the replicas a NATS cluster should keep.
 */
async function openBucket(link: NatsLink, bucket: string, replicas: number) {
  const kvm = new link.modules.kv.Kvm(link.js);
  try {
    await link.jsm.streams.info(`KV_${bucket}`);
  } catch (error) {
    if ((error as { name?: string } | null)?.name !== "StreamNotFoundError") throw error;
    return kvm.create(bucket, { history: 1, replicas });
  }
  return kvm.open(bucket);
}

/** The deployment's stream, made on first start; an existing one keeps its settings but for subjects and window. */
async function ensureStream(
  link: NatsLink,
  stream: string,
  prefix: string,
  duplicateWindowMs: number,
  replicas: number,
) {
  const { StorageType } = link.modules.jetstream;
  const config = {
    name: stream,
    subjects: [`${prefix}.events.>`],
    storage: StorageType.File,
    duplicate_window: duplicateWindowMs * 1_000_000,
    allow_direct: true,
    num_replicas: replicas,
  };
  try {
    await link.jsm.streams.info(stream);
    const updated = await link.jsm.streams.update(stream, {
      subjects: config.subjects,
      duplicate_window: config.duplicate_window,
    });
    return updated.config.num_replicas;
  } catch (error) {
    if ((error as { name?: string } | null)?.name !== "StreamNotFoundError") throw error;
    return (await link.jsm.streams.add(config)).config.num_replicas;
  }
}
