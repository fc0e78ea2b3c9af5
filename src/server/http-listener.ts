import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { capConnections, connectionCapFor } from "./connection-cap.js";

export interface HttpListener {
  /** `http://HOST:PORT`, with the port actually bound (for `--port 0`). */
  url: string;
  port: number;
  /** Stops accepting, ends open connections (SSE streams included), resolves when the socket is closed. */
  close(): Promise<void>;
}

/** How long a connection may take and how many there may be (DEFAULT_LISTEN_LIMITS). */
export interface ListenLimits {
  /** From the connection's start to the end of its request's headers (Node's default: 60 s). */
  headersTimeoutMs: number;
  /** From the connection's start to the end of its request's body (bodies are ≤ 1 MiB). */
  requestTimeoutMs: number;
  /** A keep-alive connection with no request. */
  keepAliveTimeoutMs: number;
  /** Open connections at once (connection-cap.ts). */
  maxConnections: number;
}

/**
 * A socket that sends half a request was held for a minute (Node checks its timeouts every 30 s), and sockets were
 * not capped: idle ones are now ended within seconds, and the oldest idle one makes room for a new one.
 */
export const DEFAULT_LISTEN_LIMITS: ListenLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
};

export function listen(
  app: OpenAPIHono,
  host: string,
  port: number,
  limits: ListenLimits = DEFAULT_LISTEN_LIMITS,
): Promise<HttpListener> {
  return new Promise((resolve, reject) => {
    const serverOptions = {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // how often Node looks for connections past those timeouts (default 30 s)
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    };
    const server = serve({ fetch: app.fetch, hostname: host, port, serverOptions }, (info: AddressInfo) => {
      server.off("error", reject);
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
    capConnections(server as Server, connectionCapFor(limits.maxConnections));
  });
}
