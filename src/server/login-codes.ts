import { randomBytes } from "node:crypto";

/** How long a login code is good for: long enough to open the URL `serve` printed, short enough to be spent. */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;
/** Codes outstanding at once: a client that asks for more than it uses cannot grow the map without bound. */
const MAX_OUTSTANDING = 1_000;

/**
 * One-time login codes for the inspector (docs/inspector.md): the page is opened at `/#code=C` and exchanges C for
 * the token once, so the URL a person copies, or the browser keeps in its history, holds nothing usable after the
 * page loaded. A code is good for one exchange within five minutes; it is spent by the first exchange that
 * presents it. Codes live in this server's memory: a code made by one server (or cluster node) is good only there.
 */
export class LoginCodes {
  readonly #codes = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  issue(): { code: string; expiresAt: string } {
    this.#sweep();
    if (this.#codes.size >= MAX_OUTSTANDING) {
      const oldest = this.#codes.keys().next().value;
      if (oldest !== undefined) this.#codes.delete(oldest);
    }
    const code = randomBytes(24).toString("base64url");
    const expiresAt = this.#now() + LOGIN_CODE_TTL_MS;
    this.#codes.set(code, expiresAt);
    return { code, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Spends `code`: true when it was issued here, not spent before and not expired. */
  redeem(code: string): boolean {
    const expiresAt = this.#codes.get(code);
    if (expiresAt === undefined) return false;
    this.#codes.delete(code);
    return expiresAt > this.#now();
  }

  /** Codes are issued in time order: the expired ones are at the front. */
  #sweep(): void {
    const now = this.#now();
    for (const [code, expiresAt] of this.#codes) {
      if (expiresAt > now) return;
      this.#codes.delete(code);
    }
  }
}
