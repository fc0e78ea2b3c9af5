import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { type NatsCredentials, readCredsFile } from "./nats-credentials.js";
import { loadNatsModules, type NatsModules } from "./nats-modules.js";

export interface NatsLinkOptions {
  /** Server URLs without credentials (parseNatsServers takes them out). */
  servers: string | string[];
  credentials?: NatsCredentials;
  /** The connection's name, as NATS monitoring shows it. */
  name?: string;
}

/**
 * One NATS connection and what is known of its state. The client reconnects by itself, forever; the link turns
 * its status stream and publish failures into one up/down signal the writers wait on.
 */
export class NatsLink {
  /** Whether requests are getting through. */
  #up = true;
  /** Whether the socket is connected (the client's status); false means requests would only queue up. */
  #connected = true;
  #waitingConnected: Array<() => void> = [];
  #downSince: string | undefined;
  #lastError: string | undefined;
  /** Counts recoveries: a request begun before the last one that fails late (a timeout) is no new outage. */
  #epoch = 0;
  /** Settled when the state flips; one shared promise per state, so waiting on it costs nothing per caller. */
  #flip = deferred();
  readonly #listeners = new Set<(up: boolean) => void>();

  private constructor(
    readonly modules: NatsModules,
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
  ) {
    void this.#watchStatus();
  }

  static async open(options: NatsLinkOptions): Promise<NatsLink> {
    const modules = await loadNatsModules();
    const nc = await modules.transport
      .connect({
        servers: options.servers,
        ...(await authOptions(modules, options.credentials ?? {})),
        name: options.name ?? "provider-runtime",
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        reconnectJitter: 100,
        pingInterval: 5_000,
        maxPingOut: 2,
        // Without it the client builds an Error (a stack trace) for every request up front, in case it fails: a
        // quarter of the CPU a publish costs.
        noAsyncTraces: true,
      })
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          `could not connect to NATS at ${String(options.servers)} (${reason}): check the URL, the credentials ` +
            "(user and password, token, --nats-creds) and the TLS files (--nats-tls-ca/-cert/-key)",
          { cause: error },
        );
      });
    try {
      const jsm = await modules.jetstream.jetstreamManager(nc);
      return new NatsLink(modules, nc, modules.jetstream.jetstream(nc, { timeout: 5_000 }), jsm);
    } catch (error) {
      await nc.close().catch(() => {});
      throw new Error(`NATS at ${String(options.servers)} has no JetStream (start nats-server with -js)`, {
        cause: error,
      });
    }
  }

  get up(): boolean {
    return this.#up;
  }

  get downSince(): string | undefined {
    return this.#downSince;
  }

  get lastError(): string | undefined {
    return this.#up ? undefined : this.#lastError;
  }

  /** The largest message the server takes. */
  get maxPayload(): number {
    return this.nc.info?.max_payload ?? 1024 * 1024;
  }

  /** Called with `false` when an outage begins and `true` when it ends. */
  onChange(listener: (up: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  whenUp(): Promise<void> {
    return this.#up ? Promise.resolve() : this.#flip.promise;
  }

  whenDown(): Promise<void> {
    return this.#up ? this.#flip.promise : Promise.resolve();
  }

  /**
   * Runs a request until it succeeds: between attempts it waits for the connection when the socket is down (so
   * retries do not pile up in the client's reconnect buffer) and backs off otherwise (JetStream still starting
   * after a restart). An error `isRetryable` does not accept is thrown at once.
   */
  async retry<T>(
    request: () => Promise<T>,
    isRetryable: (error: unknown) => boolean = isTransient,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (this.nc.isClosed()) throw new Error("the NATS connection is closed");
      const epoch = this.#epoch;
      try {
        const result = await request();
        this.succeeded();
        return result;
      } catch (error) {
        if (this.nc.isClosed() || !isRetryable(error)) throw error;
        this.failed(error, epoch);
        if (!this.#connected) await new Promise<void>((resolve) => this.#waitingConnected.push(resolve));
        else await delay(Math.min(1_000, 25 * 2 ** Math.min(attempt, 6)));
      }
    }
  }

  /** Pass to `failed` for a request begun now. */
  get epoch(): number {
    return this.#epoch;
  }

  /** A request to NATS failed in a way a retry may fix (timeout, no JetStream, connection lost). */
  failed(error: unknown, epoch = this.#epoch): void {
    if (epoch !== this.#epoch) return;
    this.#lastError = error instanceof Error ? error.message : String(error);
    this.#set(false);
  }

  /** A request to NATS succeeded. */
  succeeded(): void {
    this.#set(true);
  }

  async close(): Promise<void> {
    await this.nc.drain().catch(() => this.nc.close());
  }

  #set(up: boolean): void {
    if (this.#up === up || this.nc.isClosed()) return;
    this.#up = up;
    if (up) this.#epoch++;
    this.#downSince = up ? undefined : new Date().toISOString();
    const flip = this.#flip;
    this.#flip = deferred();
    flip.resolve();
    for (const listener of this.#listeners) listener(up);
  }

  async #watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === "disconnect") {
        this.#connected = false;
        this.failed(new Error(`disconnected from NATS (${status.server})`));
      } else if (status.type === "reconnect") {
        this.#connected = true;
        const waiting = this.#waitingConnected;
        this.#waitingConnected = [];
        for (const resolve of waiting) resolve();
        // Up again only once a request gets through: JetStream may still be recovering its streams.
        void this.retry(() => this.jsm.getAccountInfo()).catch(() => {});
      }
    }
    // Closed: nobody waits for a connection that will not come back.
    for (const resolve of this.#waitingConnected.splice(0)) resolve();
  }
}

/** The client's options for the credentials: user/password or token, a `.creds` file or nkey seed, TLS files. */
async function authOptions(modules: NatsModules, credentials: NatsCredentials) {
  const options: {
    user?: string;
    pass?: string;
    token?: string;
    authenticator?: ReturnType<typeof modules.transport.credsAuthenticator>;
    tls?: { caFile?: string; certFile?: string; keyFile?: string };
  } = {};
  if (credentials.token !== undefined) options.token = credentials.token;
  if (credentials.user !== undefined) {
    options.user = credentials.user;
    options.pass = credentials.pass ?? "";
  }
  if (credentials.credsFile !== undefined) {
    const creds = await readCredsFile(credentials.credsFile);
    options.authenticator =
      creds.kind === "creds"
        ? modules.transport.credsAuthenticator(creds.bytes)
        : modules.transport.nkeyAuthenticator(creds.seed);
  }
  if (credentials.tls !== undefined) options.tls = { ...credentials.tls };
  return options;
}

/** Errors of an unreachable or recovering NATS, which a retry may fix (not an API error the server answered). */
export function isTransient(error: unknown): boolean {
  const failure = error as { name?: unknown; code?: unknown } | null;
  switch (failure?.name) {
    case "TimeoutError":
    case "NoResponders":
    case "ConnectionError":
    case "RequestError":
    case "JetStreamStatusError":
    case "JetStreamNotEnabled":
      return true;
    case "JetStreamApiError":
      return failure?.code === 10008; // JetStream temporarily unavailable (recovering after a restart)
    default:
      return false;
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
