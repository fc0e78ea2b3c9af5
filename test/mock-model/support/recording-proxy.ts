import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { connect } from "node:net";

/** An HTTP(S) proxy on loopback that records every target it is asked for and forwards only to one port. */
export interface RecordingProxy {
  url: string;
  /** `host:port` of every CONNECT and absolute-URI request, in arrival order. */
  targets: string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(allowedPort: number): Promise<RecordingProxy> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const isAllowed = (host: string, port: number) =>
    (host === "127.0.0.1" || host === "localhost") && port === allowedPort;

  const server = createServer((request, response) => {
    request.on("error", () => response.destroy());
    let target: URL;
    try {
      target = new URL(request.url ?? "");
    } catch {
      response.writeHead(400).end("absolute URI required");
      return;
    }
    const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
    targets.push(`${target.hostname}:${port}`);
    if (!isAllowed(target.hostname, port)) {
      response.writeHead(403).end("refused by the recording proxy");
      return;
    }
    const upstream = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: request.headers,
      },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });

  server.on("connect", (request, client: Socket, head: Buffer) => {
    const target = request.url ?? "";
    targets.push(target);
    // A refused client may reset the connection; that must not crash the test process.
    client.on("error", () => client.destroy());
    const separator = target.lastIndexOf(":");
    const host = target.slice(0, separator);
    const port = Number(target.slice(separator + 1));
    if (!isAllowed(host, port)) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const upstream = connect(port, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function proxyEnv(proxyUrl: string): Record<string, string> {
  return {
    HTTPS_PROXY: proxyUrl,
    HTTP_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    http_proxy: proxyUrl,
    ALL_PROXY: proxyUrl,
    all_proxy: proxyUrl,
    NO_PROXY: "",
    no_proxy: "",
  };
}
