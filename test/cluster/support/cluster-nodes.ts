import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processesWithTmpdir } from "../../cli/support/cli-process.js";
import { ServeProcess } from "../../server/support/serve-process.js";
import { SseReader } from "../../server/support/sse-reader.js";

export const CLUSTER_TOKEN = "cluster-test-token";

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

  constructor(
    readonly natsUrl: string | undefined,
    readonly leaseMs = 3_000,
  ) {}

  async start(name: string, extra: string[] = []): Promise<ServeProcess> {
    const node = await ServeProcess.start({
      data: this.data,
      token: CLUSTER_TOKEN,
      extra: [
        ...(this.natsUrl === undefined
          ? []
          : ["--nats", this.natsUrl, "--node", name, "--lease-ms", String(this.leaseMs)]),
        "--mock",
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
