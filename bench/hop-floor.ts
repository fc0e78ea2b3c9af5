// The machine's own floor for the server's latency figure, measured in the same window: a stamp of the monotonic
// clock sent every 10 ms over loopback TCP from one child process to another, both at the server's priority.
// Each sample is one hop (a socket write, the kernel, the receiver waking and reading), which every delivery
// also takes from the server to its subscriber, on the same cores under the same load; so a p99 of this hop
// is latency no server change can remove. Unlike createdAt, the stamps have sub-microsecond resolution.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { LatencyHistogram, type LatencySummary } from "./latency-histogram.js";

export interface HopFloor {
  /** Starts the window (earlier hops are not kept). */
  measure(): void;
  /** The window's hops so far. */
  report(): LatencySummary;
  /** Ends both children; resolves once they have exited. */
  close(): Promise<void>;
}

const probe = new URL("./hop-probe.mjs", import.meta.url).pathname;

function start(role: string[]): ChildProcess {
  return spawn(process.execPath, [probe, ...role], { stdio: ["pipe", "pipe", "inherit"] });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once("exit", () => done());
  });

export async function startHopFloor(): Promise<HopFloor> {
  const receiver = start(["receive"]);
  let histogram: LatencyHistogram | undefined;
  const lines = createInterface({ input: receiver.stdout as NodeJS.ReadableStream });
  const port = await new Promise<string>((done, fail) => {
    receiver.once("exit", (code) => fail(new Error(`bench: the hop probe exited (${code})`)));
    lines.once("line", done);
  }).catch((error: unknown) => {
    receiver.stdin?.end();
    throw error;
  });
  lines.on("line", (line) => {
    const ms = Number(line);
    if (Number.isFinite(ms)) histogram?.add(ms);
  });
  const sender = start(["send", port]);
  return {
    measure: () => {
      histogram = new LatencyHistogram();
    },
    report: () => (histogram ?? new LatencyHistogram()).summary(),
    close: async () => {
      const both = [exited(receiver), exited(sender)];
      receiver.stdin?.end();
      sender.stdin?.end();
      await Promise.all(both);
    },
  };
}
