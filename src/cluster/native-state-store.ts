import type { ObjectStore } from "@nats-io/obj";
import type { MessageAuth } from "../store/jetstream/message-auth.js";
import type { NatsLink } from "../store/jetstream/nats-link.js";
import { packDir, unpackDir } from "./state-archive.js";

const MARKER = "PRN1 ";
const decoder = new TextDecoder();

/**
 * Sessions' native state (Codex's CODEX_HOME, Claude's config dir: DATA/sessions/<id>/) in a JetStream Object
 * Store bucket, one object per session (DESIGN.md §10, no shared disk): saved by the node running the session at
 * every turn end and when its agent exits, restored by the node that takes the session over, into its own DATA.
 *
 * What an agent reads from its state dir can make it run programs (Codex's config names MCP servers), so each
 * object carries a tag with the cluster secret over the session id and the archive, and one without is refused.
 */
export class NativeStateStore {
  /** Saves under way or asked for, per session: one at a time, the last ask wins. */
  readonly #saving = new Map<string, { running: Promise<void>; again: boolean }>();

  private constructor(
    readonly link: NatsLink,
    readonly bucket: ObjectStore,
    readonly auth: MessageAuth,
    readonly warn: (message: string) => void,
  ) {}

  static async open(
    link: NatsLink,
    name: string,
    replicas: number,
    auth: MessageAuth,
    warn: (message: string) => void,
  ): Promise<NativeStateStore> {
    const objm = new link.modules.obj.Objm(link.js);
    const bucket = await objm.create(name, { replicas, storage: link.modules.jetstream.StorageType.File });
    return new NativeStateStore(link, bucket, auth, warn);
  }

  /** Saves the dir now, or once more after the save under way; resolves when what the dir holds now is stored. */
  save(sessionId: string, dir: string): Promise<void> {
    const current = this.#saving.get(sessionId);
    if (current !== undefined) {
      current.again = true;
      return current.running;
    }
    const state = { running: Promise.resolve(), again: false };
    state.running = (async () => {
      try {
        do {
          state.again = false;
          await this.#saveNow(sessionId, dir).catch((error: unknown) =>
            this.warn(`session ${sessionId}: saving its native state: ${messageOf(error)}`),
          );
        } while (state.again);
      } finally {
        this.#saving.delete(sessionId);
      }
    })();
    this.#saving.set(sessionId, state);
    return state.running;
  }

  /** Waits for the saves under way. */
  async settle(): Promise<void> {
    await Promise.all([...this.#saving.values()].map((state) => state.running));
  }

  /** Replaces `dir` with the session's saved state: the files restored, or undefined when none is saved. */
  async restore(sessionId: string, dir: string): Promise<number | undefined> {
    // Retried: the client reads an object through an unreplicated consumer, which a NATS cluster that lost a server
    // may place on it (a timeout); the next try is placed anew.
    const blob = await this.link.retry(() => this.bucket.getBlob(sessionId));
    if (blob === null) return undefined;
    const newline = blob.indexOf(0x0a);
    const head = decoder.decode(blob.subarray(0, Math.max(0, newline)));
    const archive = blob.subarray(newline + 1);
    if (
      newline < 0 ||
      !head.startsWith(MARKER) ||
      !this.auth.check("event", [`native ${sessionId}`, archive], head.slice(MARKER.length))
    )
      throw new Error(`the saved native state of session ${sessionId} has no valid tag: not restored`);
    return unpackDir(archive, dir);
  }

  async remove(sessionId: string): Promise<void> {
    await this.bucket.delete(sessionId).catch(() => undefined);
  }

  async #saveNow(sessionId: string, dir: string): Promise<void> {
    const archive = await packDir(dir);
    const tag = this.auth.tag("event", [`native ${sessionId}`, archive]);
    const head = Buffer.from(`${MARKER}${tag}\n`);
    await this.bucket.putBlob({ name: sessionId }, Buffer.concat([head, archive]));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
