import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { OpenAPIHono } from "@hono/zod-openapi";

export interface HttpListener {
  /** `http://HOST:PORT`, with the port actually bound (for `--port 0`). */
  url: string;
  port: number;
  /** Stops accepting, ends open connections (SSE streams included), resolves when the socket is closed. */
  close(): Promise<void>;
}

export function listen(app: OpenAPIHono, host: string, port: number): Promise<HttpListener> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
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
  });
}
