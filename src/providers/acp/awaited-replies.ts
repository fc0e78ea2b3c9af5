import { idKey, isObject, str } from "../../kit/guards.js";

/**
 * Our requests to the agent whose replies a caller is waiting for (initialize, session/new, set_mode, …).
 * Back-pressure must not hold such a reply: a host that awaits `start()` before it reads would wait on a reply
 * queued behind the pause its own unread events caused. `session/prompt` is left out: its reply ends a turn, and
 * a whole turn is exactly what back-pressure is for (sendTurn does not wait for it).
 */
export class AwaitedReplies {
  readonly #pending = new Set<string>();
  #release: (() => void) | undefined;

  /** An outgoing message: a request (other than a prompt) is now awaited, and a pause in force is lifted. */
  sent(message: unknown): void {
    if (!isObject(message)) return;
    const id = idKey(message.id);
    const method = str(message.method);
    if (id === undefined || method === undefined || method === "session/prompt") return;
    this.#pending.add(id);
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  /** An incoming message: true when it answers an awaited request (it must pass), which is then no longer awaited. */
  answers(message: unknown): boolean {
    if (!isObject(message) || message.method !== undefined) return false;
    const id = idKey(message.id);
    return id !== undefined && this.#pending.delete(id);
  }

  /** Whether the inbound side may pause now. */
  get mayPause(): boolean {
    return this.#pending.size === 0;
  }

  /** A pause that ends on `drained` or as soon as a request is sent. */
  pause(drained: (resume: () => void) => void): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#release = resolve;
      drained(resolve);
    });
  }
}
