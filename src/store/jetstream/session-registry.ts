import type { KV } from "@nats-io/kv";
import { BoundedMap } from "../../kit/bounded-map.js";
import type { SessionPatch, SessionRecord } from "../types.js";
import type { MessageAuth } from "./message-auth.js";
import { isTransient, type NatsLink } from "./nats-link.js";
import { decodeRecord, encodeRecord } from "./record-codec.js";

/** KV's answer to a write whose expected revision is not the key's last. */
const WRONG_LAST_SEQUENCE = 10071;
/** Records (with their revision) this node keeps: what it reads or writes, bounded. */
const KNOWN_RECORDS = 10_000;
/** How long a list may take before NATS counts as unreachable. */
const LIST_TIMEOUT_MS = 30_000;

interface Known {
  record: SessionRecord;
  revision: number;
}

/**
 * The session registry in a JetStream KV bucket: one key per session, its SessionRecord as JSON. Every write is
 * compare-and-set on the key's revision, so two nodes changing one record (the owner's summary, another node's
 * claim) never lose a field.
 *
 * Patches are written behind: `update` merges the patch into the session's pending one and returns; one writer
 * per session puts it (one request when the cached revision is still the key's), and while NATS is unreachable
 * the pending patch waits, merged (one per session), until it is back. A read on this node applies its pending
 * patch on top, and during an outage a record this node knows is answered from memory, so the node's own sessions
 * still take commands. A node that dies loses at most its last summary patch, which the next start recomputes
 * from the events (the server's restore).
 */
export class SessionRegistry {
  readonly #pending = new Map<string, SessionPatch>();
  readonly #writing = new Map<string, Promise<void>>();
  /** One compare-and-set at a time per session on this node: parallel ones would only fight over the revision. */
  readonly #chains = new Map<string, Promise<unknown>>();
  readonly #known = new BoundedMap<string, Known>(KNOWN_RECORDS);
  #closed = false;

  constructor(
    readonly link: NatsLink,
    readonly kv: KV,
    readonly warn: (message: string) => void = () => undefined,
    /** Tags every record and checks every one read; undefined: none (a store without a cluster secret). */
    readonly auth: MessageAuth | undefined = undefined,
    /** Told of a record whose tag fails: it is read as absent. */
    readonly onForged: (id: string, revision: number) => void = () => undefined,
  ) {}

  get pendingPatches(): number {
    return this.#pending.size;
  }

  /** Stores a new record; refused (an error) when the id exists or NATS is unreachable. */
  async create(record: SessionRecord): Promise<void> {
    try {
      const revision = await this.kv.create(record.id, encodeRecord(this.auth, record));
      this.#known.set(record.id, { record, revision });
    } catch (error) {
      if (isWrongLastSequence(error)) throw new Error(`session ${record.id} exists`);
      throw unreachable(error);
    }
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    this.#pending.set(id, { ...this.#pending.get(id), ...patch });
    if (!this.#writing.has(id)) {
      const writing = this.#writePending(id).finally(() => this.#writing.delete(id));
      this.#writing.set(id, writing);
    }
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    let record: SessionRecord | undefined;
    try {
      record = this.link.up ? (await this.#read(id))?.record : this.#known.get(id)?.record;
    } catch (error) {
      if (!isTransient(error)) throw error;
      record = this.#known.get(id)?.record;
    }
    if (record === undefined && !this.link.up)
      throw unreachable(new Error(this.link.lastError ?? "no connection"));
    const pending = this.#pending.get(id);
    return record && pending ? merge(record, pending) : record;
  }

  /**
   * Every record, by id: the bucket's last values in one pass of an ordered consumer (a get per key would be a round
   * trip per session, 10,000 of them for a list), this node's pending patches on top.
   */
  async list(): Promise<SessionRecord[]> {
    let known: Map<string, Known>;
    try {
      known = await this.#readAll();
    } catch (first) {
      // a watch can fail where single reads still work (a starved client missing the consumer's heartbeats)
      this.warn(`listing the registry in one pass failed (${messageOf(first)}); reading it key by key`);
      try {
        known = await this.#readEach();
      } catch (error) {
        throw unreachable(error);
      }
    }
    const records: SessionRecord[] = [];
    for (const id of [...known.keys()].sort()) {
      const record = (known.get(id) as Known).record;
      const pending = this.#pending.get(id);
      records.push(pending ? merge(record, pending) : record);
    }
    return records;
  }

  /** Removes the session's key for good (its history too); a patch pending for it is dropped. */
  async remove(id: string): Promise<void> {
    await this.settle();
    this.#pending.delete(id);
    try {
      await this.kv.purge(id);
    } catch (error) {
      throw unreachable(error);
    }
    this.#known.release(id);
  }

  /**
   * Makes `node` the session's owner until `leaseUntil`, unless another node holds a lease that has not ended by
   * `now`; compare-and-set, so of two nodes claiming at once one wins. The record as claimed, or undefined.
   */
  claim(id: string, node: string, leaseUntil: string, now: string): Promise<SessionRecord | undefined> {
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

  /** Waits for the pending patches to be written (through an outage: until NATS is back). */
  async settle(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing.values());
  }

  close(): void {
    this.#closed = true;
  }

  /** Writes the session's pending patch until none is left; through an outage, when NATS is back. */
  async #writePending(id: string): Promise<void> {
    for (;;) {
      const patch = this.#pending.get(id);
      if (patch === undefined || this.#closed) return;
      try {
        const written = await this.link.retry(() => this.#swap(id, (record) => merge(record, patch)));
        if (written === undefined) this.warn(`registry: no session ${id} to patch`);
      } catch (error) {
        // Only a closed connection gets here: what is pending stays unwritten, as close() says.
        if (this.link.nc.isClosed()) return;
        this.warn(
          `registry: patching session ${id}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      // Patches that arrived meanwhile were merged into a new object: write again.
      if (this.#pending.get(id) === patch) this.#pending.delete(id);
    }
  }

  /** Compare-and-set of one record, one at a time per session: `change` gives the new value, or undefined. */
  #swap(
    id: string,
    change: (record: SessionRecord) => SessionRecord | undefined,
  ): Promise<SessionRecord | undefined> {
    const run = (this.#chains.get(id) ?? Promise.resolve()).then(() => this.#swapNow(id, change));
    const chain = run.catch(() => undefined);
    this.#chains.set(id, chain);
    void chain.then(() => {
      if (this.#chains.get(id) === chain) this.#chains.delete(id);
    });
    return run;
  }

  async #swapNow(
    id: string,
    change: (record: SessionRecord) => SessionRecord | undefined,
  ): Promise<SessionRecord | undefined> {
    // The cached revision first: when this node was the last to write, one request does it.
    let current = this.#known.get(id) ?? (await this.#read(id));
    for (let attempt = 0; ; attempt++) {
      if (current === undefined) return undefined;
      const record = change(current.record);
      if (record === undefined) return undefined;
      try {
        const revision = await this.kv.update(id, encodeRecord(this.auth, record), current.revision);
        this.#known.set(id, { record, revision });
        this.link.succeeded();
        return record;
      } catch (error) {
        if (!isWrongLastSequence(error)) throw error;
        // Another node wrote since: read again; every round has a winner, so a short random pause ends contention.
        if (attempt > 0) await delay(Math.random() * Math.min(50, 2 + attempt * 5));
        current = await this.#read(id);
      }
    }
  }

  async #readEach(): Promise<Map<string, Known>> {
    const ids: string[] = [];
    for await (const key of await this.kv.keys()) ids.push(key);
    const records = new Map<string, Known>();
    for (const id of ids) {
      const known = await this.#read(id);
      if (known !== undefined) records.set(id, known);
    }
    return records;
  }

  async #readAll(): Promise<Map<string, Known>> {
    const records = new Map<string, Known>();
    if (!this.link.up) throw new Error(this.link.lastError ?? "no connection");
    if ((await this.kv.status()).values === 0) return records;
    const watch = await this.kv.watch();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      watch.stop();
    }, LIST_TIMEOUT_MS);
    try {
      for await (const entry of watch) {
        if (entry.operation === "PUT") {
          const record = decodeRecord(this.auth, entry.key, entry.value);
          if (record === "forged") this.onForged(entry.key, entry.revision);
          else {
            const known = { record, revision: entry.revision };
            records.set(entry.key, known);
            this.#known.set(entry.key, known);
          }
        } else records.delete(entry.key);
        // the last value there was when the watch began; what follows are changes made since
        if ((entry.delta ?? 0) === 0) break;
      }
    } finally {
      clearTimeout(timer);
      watch.stop();
    }
    if (timedOut) throw new Error(`no answer from NATS within ${LIST_TIMEOUT_MS} ms`);
    return records;
  }

  async #read(id: string): Promise<Known | undefined> {
    const entry = await this.kv.get(id);
    if (entry === null || entry.operation !== "PUT") {
      this.#known.release(id);
      return undefined;
    }
    const record = decodeRecord(this.auth, id, entry.value);
    if (record === "forged") {
      this.#known.release(id);
      this.onForged(id, entry.revision);
      return undefined;
    }
    const known = { record, revision: entry.revision };
    this.#known.set(id, known);
    return known;
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
