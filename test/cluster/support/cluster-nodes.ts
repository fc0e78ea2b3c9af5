import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processesWithTmpdir } from "../../cli/support/cli-process.js";
import { ServeProcess } from "../../server/support/serve-process.js";
import { SseReader } from "../../server/support/sse-reader.js";

export const CLUSTER_TOKEN = "cluster-test-token";

export interface ClusterNodesOptions {
  /** Each node its own `--data` (DATA/<name>), as machines without a shared disk; default one shared dir. */
  separateData?: boolean;
  /** More NATS flags for every node (`--nats-creds F`, `--nats-tls-ca F`, `--nats-replicas 3`). */
  natsArgs?: string[];
  /** The nodes' environment (NATS_USER, NATS_PASSWORD). */
  env?: Record<string, string>;
  /** More flags for every node (`--root DIR`, `--model-url URL` instead of `--mock`). */
  serveArgs?: string[];
}

/**
 * `serve --nats` nodes sharing one NATS server and one `--data` (native resume after a takeover needs it); with no
 * NATS URL, one plain `serve` on the embedded SQLite store (the benchmark's reference).
 */
export class ClusterNodes {
  readonly data = mkdtempSync(join(tmpdir(), "cluster-data-"));
  readonly nodes = new Map<string, ServeProcess>();
  /** Every node started, a restarted name's earlier ones too: `dispose` stops them and removes their TMPDIRs. */
  readonly #started: ServeProcess[] = [];
  readonly readers: SseReader[] = [];
  /** The cluster secret every node reads (`--cluster-secret-file`): made for the test, mode 0600. */
  readonly secretFile = join(this.data, "cluster-secret");

  constructor(
    readonly natsUrl: string | undefined,
    readonly leaseMs = 3_000,
    readonly options: ClusterNodesOptions = {},
  ) {
    writeFileSync(this.secretFile, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }

  /** The node's `--data`. */
  dataOf(name: string): string {
    if (!this.options.separateData) return this.data;
    const dir = join(this.data, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Starts a node; `extra` comes last (a second `--nats URL` there replaces the cluster's). */
  async start(name: string, extra: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
    const node = await ServeProcess.start({
      data: this.dataOf(name),
      token: CLUSTER_TOKEN,
      env: { ...this.options.env, ...env },
      extra: [
        ...(this.natsUrl === undefined
          ? []
          : [
              "--nats",
              this.natsUrl,
              "--node",
              name,
              "--lease-ms",
              String(this.leaseMs),
              "--cluster-secret-file",
              this.secretFile,
              ...(this.options.natsArgs ?? []),
            ]),
        ...(this.options.serveArgs ?? ["--mock"]),
        ...extra,
      ],
    });
    this.nodes.set(name, node);
    this.#started.push(node);
    return node;
  }

  node(name: string): ServeProcess {
    const node = this.nodes.get(name);
    if (node === undefined) throw new Error(`no node ${name}`);
    return node;
  }

  /** A session's SSE stream through a node, as any HTTP client reads it. */
  watch(name: string, sessionId: string, lastEventId?: number): SseReader {
    const reader = new SseReader(`${this.node(name).url}/v1/sessions/${sessionId}/events`, {
      authorization: `Bearer ${CLUSTER_TOKEN}`,
      ...(lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) }),
    });
    this.readers.push(reader);
    return reader;
  }

  async post(
    name: string,
    path: string,
    json: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    return this.node(name).json(path, { method: "POST", json });
  }

  /** Stops every node (SIGTERM), then checks no process of theirs is left, and removes the data dir. */
  async dispose(): Promise<number[]> {
    for (const reader of this.readers) reader.close();
    await Promise.all(this.#started.map((node) => node.stop("SIGTERM")));
    const left = this.#started.flatMap((node) => processesWithTmpdir(node.cli.tmp));
    for (const node of this.#started) rmSync(node.cli.tmp, { recursive: true, force: true });
    rmSync(this.data, { recursive: true, force: true });
    return left;
  }
}
