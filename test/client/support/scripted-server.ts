// TEST TOOL: a scripted stand-in for `provider-runtime serve`, speaking just enough HTTP and SSE for the remote
// client's edge cases (dropped connections, repeats, gaps, restarts, malformed messages). The client's main
// tests run against the real server; this exists because the real one cannot be made to misbehave on cue.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RuntimeEvent } from "../../../src/contracts/events.js";

/** One SSE connection the client opened, for the test to write to. */
export interface StreamConnection {
  /** 0 for the first connection of the server's life, and so on. */
  index: number;
  /** The `after` query parameter. */
  after: number;
  lastEventId: string | undefined;
  send(event: RuntimeEvent): void;
  sendRaw(text: string): void;
  comment(text: string): void;
  /** Ends the response cleanly (as a server shutting down does). */
  end(): void;
  /** Cuts the TCP connection (as a crash does). */
  destroy(): void;
  /** Resolves when the client has closed the connection. */
  closed: Promise<void>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface RouteReply {
  status: number;
  body?: unknown;
}

export interface ScriptedServerOptions {
  /** Called for each SSE connection; the connection stays open until the test ends or destroys it. */
  onStream?(connection: StreamConnection): void;
  /** Answers a JSON route; undefined: 404. The default answers event pages from `stored`. */
  onRoute?(request: RecordedRequest): RouteReply | undefined | Promise<RouteReply | undefined>;
  /** Reuse a port (a restart). */
  port?: number;
  /** A status for every SSE connection instead of a stream. */
  streamStatus?: RouteReply;
}

export interface ScriptedServer {
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  streams: StreamConnection[];
  /** The events the default page route serves. */
  stored: RuntimeEvent[];
  close(): Promise<void>;
}

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const streams: StreamConnection[] = [];
  const stored: RuntimeEvent[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const pages = (request: RecordedRequest): RouteReply | undefined => {
    const url = new URL(request.path, "http://x");
    if (!url.pathname.endsWith("/events")) return undefined;
    const after = Number(url.searchParams.get("after") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 1000);
    const events = stored.filter((e) => e.sequence > after).slice(0, limit);
    return { status: 200, body: { events, next: events.at(-1)?.sequence ?? after } };
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", async () => {
      const request: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
      };
      requests.push(request);
      if (req.method === "GET" && (req.headers.accept ?? "").includes("text/event-stream")) {
        if (options.streamStatus !== undefined) return reply(res, options.streamStatus);
        const url = new URL(request.path, "http://x");
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.flushHeaders();
        const lastEventId = req.headers["last-event-id"];
        const connection: StreamConnection = {
          index: streams.length,
          after: Number(url.searchParams.get("after") ?? 0),
          lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
          send: (event) => res.write(`id: ${event.sequence}\ndata: ${JSON.stringify(event)}\n\n`),
          sendRaw: (text) => res.write(text),
          comment: (text) => res.write(`: ${text}\n\n`),
          end: () => res.end(),
          destroy: () => res.socket?.destroy(),
          closed: new Promise((resolve) => res.on("close", () => resolve())),
        };
        streams.push(connection);
        options.onStream?.(connection);
        return;
      }
      const answer = (await options.onRoute?.(request)) ?? pages(request);
      reply(res, answer ?? { status: 404, body: { error: "no such route" } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    streams,
    stored,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, answer: RouteReply): void {
  if (answer.body === undefined) {
    res.writeHead(answer.status).end();
    return;
  }
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, { "content-type": "application/json" }).end(text);
}
