import type { MiddlewareHandler } from "hono";
import { isLoopbackHost } from "./server-token.js";

/** The host name of a `Host` header (`127.0.0.1:4317`, `[::1]:4317`, `localhost`), lower case, no port. */
function hostName(header: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(header);
  if (bracketed !== null) return bracketed[1]?.toLowerCase() ?? "";
  return header.replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase();
}

/**
 * On a loopback bind, only requests addressed to a loopback name or address: a web page whose DNS name is rebound
 * to 127.0.0.1 reaches the socket, but with its own name in `Host`, and gets a 403 (health and the page included).
 * A request without `Host` (HTTP/1.0) comes from no browser, and passes.
 */
export function loopbackHostOnly(): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("host");
    if (header !== undefined) {
      const name = hostName(header);
      if (!isLoopbackHost(name) && !name.endsWith(".localhost"))
        return c.json(
          { error: `Host ${JSON.stringify(header)} is not a loopback name: this server is local` },
          403,
        );
    }
    await next();
    return undefined;
  };
}

/** On every response: never framed by another page (clickjacking), never sniffed into another type. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    const policy = c.res.headers.get("Content-Security-Policy");
    if (policy === null) c.res.headers.set("Content-Security-Policy", "frame-ancestors 'none'");
    else if (!policy.includes("frame-ancestors"))
      c.res.headers.set("Content-Security-Policy", `${policy}; frame-ancestors 'none'`);
  };
}
