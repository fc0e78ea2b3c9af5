import { idKey, isObject, str } from "../kit/guards.js";

/**
 * Our JSON-RPC requests whose replies a caller awaits (initialize, thread/start, turn/start, session/new, …).
 * Back-pressure must not hold such a reply: a host that awaits `start()` or `sendTurn()` before it reads would
 * wait on a reply queued behind the pause its own unread events caused. Methods whose reply ends a long piece of
 * work (ACP's `session/prompt` ends a turn) are left out: such a reply is what back-pressure is for.
 *
 * A reply that never comes must not switch back-pressure off for good: a request is awaited for at most
 * `maxWaitMs` (longer than any call timeout of the drivers), whether or not its sender gives up on it (ACP's SDK
 * does not tell which of its requests timed out).
 */
export class AwaitedCalls {
  /** Request id → when it was sent. */
  readonly #pending = new Map<string, number>();

  constructor(
    readonly unawaitedMethods: readonly string[] = [],
    readonly maxWaitMs = 120_000,
    readonly now: () => number = Date.now,
  ) {}

  /** An outgoing message; true when it is a request whose reply is now awaited. */
  sent(message: unknown): boolean {
    if (!isObject(message)) return false;
    const id = idKey(message.id);
    const method = str(message.method);
    if (id === undefined || method === undefined || this.unawaitedMethods.includes(method)) return false;
    this.#pending.set(id, this.now());
    return true;
  }

  /** An incoming message; true when it answers an awaited request, which is then no longer awaited. */
  answers(message: unknown): boolean {
    if (!isObject(message) || message.method !== undefined) return false;
    const id = idKey(message.id);
    return id !== undefined && this.#pending.delete(id);
  }

  /** A request given up on (timed out): its reply is no longer awaited. */
  abandon(id: string | number): void {
    this.#pending.delete(String(id));
  }

  get anyPending(): boolean {
    if (this.#pending.size === 0) return false;
    const oldest = this.now() - this.maxWaitMs;
    for (const [id, sentAt] of this.#pending) if (sentAt < oldest) this.#pending.delete(id);
    return this.#pending.size > 0;
  }
}
