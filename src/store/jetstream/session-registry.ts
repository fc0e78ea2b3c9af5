import type { KV } from "@nats-io/kv";
import { BoundedMap } from "../../kit/bounded-map.js";
import type { SessionPatch, SessionRecord } from "../types.js";
import { isTransient, type NatsLink } from "./nats-link.js";

/** KV's answer to an update whose expected revision is not the key's last. */
const WRONG_LAST_SEQUENCE = 10071;

const KNOWN_RECORDS = 10_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The session registry in a JetStream KV bucket: one key per session, its SessionRecord as JSON. Updates are
 * compare-and-set on the key's revision, so two nodes patching one record (the owner renewing its lease while
 * another reads it) never lose a field. While NATS is unreachable, patches are merged into one pending patch per
 * session (bounded by the number of sessions) and written when it is back; reads apply them on top, and a read
 * of a record this node has seen is answered from its last known value (so the node's own sessions still take
 * commands during an outage).
 */
export class SessionRegistry {
  readonly #pending = new Map<string, SessionPatch>();
  /** One update at a time per session on this node: parallel ones would only fight over the revision. */
  readonly #chains = new Map<string, Promise<void>>();
  /** The last value of the records this node read or wrote, for reads during an outage. */
  readonly #known = new BoundedMap<string, SessionRecord>(KNOWN_RECORDS);
  #flushing: Promise<void> | undefined;

  constructor(
    readonly link: NatsLink,
    readonly kv: KV,
  ) {
    link.onChange((up) => {
      if (up) this.#flush();
    });
  }

  get pendingPatches(): number {
    return this.#pending.size;
  }

  /** Stores a new record; refused (an error) when the id exists or NATS is unreachable. */
  async create(record: SessionRecord): Promise<void> {
    try {
      await this.kv.create(record.id, encoder.encode(JSON.stringify(record)));
      this.#known.set(record.id, record);
    } catch (error) {
      if (isWrongLastSequence(error)) throw new Error(`session ${record.id} exists`);
      throw unreachable(error);
    }
  }

  update(id: string, patch: SessionPatch): Promise<void> {
    const previous = this.#chains.get(id) ?? Promise.resolve();
    const next = previous.then(() => this.#update(id, patch));
    const chain = next.catch(() => {});
    this.#chains.set(id, chain);
    void chain.then(() => {
      if (this.#chains.get(id) === chain) this.#chains.delete(id);
    });
    return next;
  }

  async #update(id: string, patch: SessionPatch): Promise<void> {
    if (this.#pending.has(id) || !this.link.up) {
      this.#defer(id, patch);
      return;
    }
    const epoch = this.link.epoch;
    try {
      await this.#apply(id, patch);
    } catch (error) {
      if (!isTransient(error)) throw error;
      this.link.failed(error, epoch);
      this.#defer(id, patch);
    }
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    let record: SessionRecord | undefined;
    try {
      record = this.link.up ? (await this.#read(id))?.record : this.#known.get(id);
    } catch (error) {
      if (!isTransient(error)) throw error;
      record = this.#known.get(id);
    }
    if (record === undefined && !this.link.up)
      throw unreachable(new Error(this.link.lastError ?? "no connection"));
    const pending = this.#pending.get(id);
    return record && pending ? merge(record, pending) : record;
  }

  /**
   * Makes `node` the session's owner until `leaseUntil`, unless another node holds a lease that has not ended by
   * `now`; compare-and-set, so of two nodes claiming at once one wins. The record as claimed, or undefined.
   */
  async claim(id: string, node: string, leaseUntil: string, now: string): Promise<SessionRecord | undefined> {
    return this.#swap(id, (record) => {
      const owner = record.owner;
      if (owner !== undefined && owner.node !== node && owner.leaseUntil > now) return undefined;
      return { ...record, owner: { node, leaseUntil } };
    });
  }

  /** Ends `node`'s lease on the session at once (a node that stops cleanly), if it still holds it. */
  async release(id: string, node: string, now: string): Promise<void> {
    await this.#swap(id, (record) =>
      record.owner?.node === node ? { ...record, owner: { node, leaseUntil: now } } : undefined,
    );
  }

  async list(): Promise<SessionRecord[]> {
    try {
      const ids: string[] = [];
      for await (const key of await this.kv.keys()) ids.push(key);
      const records: SessionRecord[] = [];
      for (const id of ids.sort()) {
        const record = await this.get(id);
        if (record) records.push(record);
      }
      return records;
    } catch (error) {
      throw unreachable(error);
    }
  }

  /** Waits for the pending patches to be written (or NATS to stay away for `timeoutMs`). */
  async settle(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) return;
    this.#flush();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#flushing,
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  async #apply(id: string, patch: SessionPatch): Promise<void> {
    const written = await this.#swap(id, (record) => merge(record, patch));
    if (written === undefined) throw new UnknownSession(id);
  }

  /** Compare-and-set of one record: `change` gives the new value, or undefined to leave it. */
  async #swap(
    id: string,
    change: (record: SessionRecord) => SessionRecord | undefined,
  ): Promise<SessionRecord | undefined> {
    for (let attempt = 0; ; attempt++) {
      const stored = await this.#read(id);
      if (stored === undefined) return undefined;
      const record = change(stored.record);
      if (record === undefined) return undefined;
      try {
        await this.kv.update(id, encoder.encode(JSON.stringify(record)), stored.revision);
        this.#known.set(id, record);
        this.link.succeeded();
        return record;
      } catch (error) {
        if (!isWrongLastSequence(error)) throw error;
        // Another node won this round; every round has a winner, so a short random pause ends the contention.
        await delay(Math.random() * Math.min(50, 2 + attempt * 5));
      }
    }
  }

  async #read(id: string): Promise<{ record: SessionRecord; revision: number } | undefined> {
    const entry = await this.kv.get(id);
    if (entry === null || entry.operation !== "PUT") return undefined;
    const record = JSON.parse(decoder.decode(entry.value)) as SessionRecord;
    if (this.#known.has(id)) this.#known.set(id, record);
    return { record, revision: entry.revision };
  }

  #defer(id: string, patch: SessionPatch): void {
    this.#pending.set(id, { ...this.#pending.get(id), ...patch });
    if (this.link.up) this.#flush();
  }

  #flush(): void {
    this.#flushing ??= (async () => {
      try {
        while (this.#pending.size > 0) {
          const [id, patch] = this.#pending.entries().next().value as [string, SessionPatch];
          await this.link.retry(async () => {
            try {
              await this.#apply(id, patch);
            } catch (error) {
              if (!(error instanceof UnknownSession)) throw error;
            }
          });
          // Patches that arrived while this one was written stay pending, merged, for the next round.
          if (this.#pending.get(id) === patch) this.#pending.delete(id);
        }
      } catch {
        // the connection is closed
      } finally {
        this.#flushing = undefined;
      }
    })();
  }
}

class UnknownSession extends Error {
  constructor(id: string) {
    super(`no session ${id}`);
    this.name = "UnknownSession";
  }
}

function merge(record: SessionRecord, patch: SessionPatch): SessionRecord {
  const merged: SessionRecord = { ...record };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

function isWrongLastSequence(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === WRONG_LAST_SEQUENCE;
}

function unreachable(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`the session registry (NATS KV) is unreachable: ${message}`, { cause: error });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
