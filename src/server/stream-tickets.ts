import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/** How long a ticket is good for. */
export const STREAM_TICKET_TTL_MS = 60_000;
/** Tickets outstanding at once: a client that asks for more than it uses cannot grow the map without bound. */
const MAX_OUTSTANDING = 10_000;

const EVENTS_PATH = /^\/v1\/sessions\/([^/]+)\/events(?:\/stream)?$/;

interface Ticket {
  sessionId: string;
  expiresAt: number;
}

/**
 * Stream tickets (DESIGN.md §9): a browser's native EventSource cannot send the Authorization header, so a client
 * holding the token asks for a ticket and the EventSource presents it as `?ticket=`. A ticket opens one GET of the
 * events of one session within 60 s; it is spent by the first request that presents it, whether that request
 * was for its session or not.
 */
export class StreamTickets {
  readonly #tickets = new Map<string, Ticket>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  issue(sessionId: string): { ticket: string; expiresAt: string } {
    this.#sweep();
    if (this.#tickets.size >= MAX_OUTSTANDING) {
      const oldest = this.#tickets.keys().next().value;
      if (oldest !== undefined) this.#tickets.delete(oldest);
    }
    const ticket = randomBytes(32).toString("base64url");
    const expiresAt = this.#now() + STREAM_TICKET_TTL_MS;
    this.#tickets.set(ticket, { sessionId, expiresAt });
    return { ticket, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Spends `ticket`: true when it was good for `sessionId`. */
  redeem(ticket: string, sessionId: string): boolean {
    const held = this.#tickets.get(ticket);
    if (held === undefined) return false;
    this.#tickets.delete(ticket);
    return held.sessionId === sessionId && held.expiresAt > this.#now();
  }

  /** Tickets are issued in time order: the expired ones are at the front. */
  #sweep(): void {
    const now = this.#now();
    for (const [ticket, held] of this.#tickets) {
      if (held.expiresAt > now) return;
      this.#tickets.delete(ticket);
    }
  }
}

/**
 * `auth`, unless the request is a GET of a session's events that presents a ticket: then the ticket alone decides
 * (401 when it is unknown, spent, expired or for another session).
 */
export function ticketOr(tickets: StreamTickets, auth: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    const ticket = c.req.query("ticket");
    const path = EVENTS_PATH.exec(c.req.path);
    if (ticket === undefined || path === null || c.req.method !== "GET") return auth(c, next);
    if (!tickets.redeem(ticket, decodeURIComponent(path[1] ?? ""))) {
      return c.json({ error: "unknown, spent, expired or foreign stream ticket" }, 401);
    }
    await next();
  };
}
