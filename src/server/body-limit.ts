import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * Refuses a request body over `maxSize` bytes with `onError` (a 413). A body with a Content-Length is judged by
 * the header alone and a GET or HEAD is let through; only a chunked body goes through Hono's `bodyLimit`, which
 * counts the bytes as they come. Hono's first step, reading `c.req.raw.body`, makes @hono/node-server build a
 * whole web Request with a stream body: ~1 ms of the event loop per request here, a quarter of a `POST /turns`
 * (docs/performance.md). The routes then read the body by the adapter's direct path.
 */
export function bodySizeLimit(maxSize: number, onError: (c: Context) => Response): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined)
      return Number.parseInt(length, 10) > maxSize ? onError(c) : next();
    return counted(c, next);
  };
}
