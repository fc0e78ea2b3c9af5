import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * `Authorization: Bearer <token>` or 401. The comparison takes the same time whatever the guess: both sides are
 * hashed to equal lengths first, then compared in constant time.
 */
export function bearerAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const given = match?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      c.header("WWW-Authenticate", 'Bearer realm="provider-runtime"');
      return c.json({ error: "missing or wrong bearer token" }, 401);
    }
    await next();
  };
}
