import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy between the browser and `serve`: the page's origin stays the same when the server restarts on
 * another port (retarget), and the test can cut the network (every connection reset, new ones refused).
 */
export class TcpProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #target: number;
  #cut = false;

  private constructor(server: Server, target: number) {
    this.#server = server;
    this.#target = target;
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, targetPort);
    server.on("connection", (client) => proxy.#connect(client));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return proxy;
  }

  get url(): string {
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("the proxy is not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  retarget(port: number): void {
    this.#target = port;
  }

  /** The network goes away: open connections are reset, new ones refused until `restore`. */
  cut(): void {
    this.#cut = true;
    for (const socket of this.#sockets) socket.resetAndDestroy();
    this.#sockets.clear();
  }

  restore(): void {
    this.#cut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((done) => this.#server.close(() => done()));
  }

  #connect(client: Socket): void {
    if (this.#cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection({ host: "127.0.0.1", port: this.#target });
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on("close", () => this.#sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
