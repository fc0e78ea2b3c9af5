// `npm run bench:cluster`: the server on one node against three, in the same run, with the embedded SQLite store as
// the reference. Real `serve` processes (the
// built CLI: `npm run build` first) on one real nats-server, real Codex app-servers against each node's mock model.
// Each session runs one `mock:long` turn (3,000 text deltas); its SSE subscribers read through another node than
// the one running the agent when there are three. A standalone bench (the client branch's server bench had not
// landed when this was written); the same latency definition: a subscriber's wall clock at delivery minus the
// event's `createdAt` (the driver's wall clock when it read the native record, to the microsecond).
import { readFileSync } from "node:fs";
import { createParser } from "eventsource-parser";
import { millisecondsOf, systemWallClock } from "../src/kit/wall-clock.js";
import { CLUSTER_TOKEN, ClusterNodes } from "../test/cluster/support/cluster-nodes.js";
import { startNatsServer } from "../test/cluster/support/nats-server.js";
import { hmacCostPerEvent } from "./cluster-hmac.js";
import { startHopFloor } from "./hop-floor.js";

const SESSIONS = Number(process.env.BENCH_CLUSTER_SESSIONS ?? 6);
const SUBSCRIBERS = Number(process.env.BENCH_CLUSTER_SUBSCRIBERS ?? 2);
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

type Setup = "sqlite" | 1 | 3;

interface Result {
  setup: Setup;
  seconds: number;
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  gaps: number;
  /** Events stored (each session's, once). */
  stored: number;
  /** The loopback hop's p99 in the same window: the floor no server change can go below. */
  floorP99Ms: number;
  /** The serve processes' peak resident memory, summed (VmHWM). */
  peakRssMb: number;
}

/** A process's peak resident set (VmHWM) in MiB; 0 where /proc does not say. */
function peakRssMb(pid: number | undefined): number {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Reads one session's SSE stream until `turn.completed`; each event's latency goes to `samples`. */
async function subscribe(url: string, samples: number[]): Promise<{ count: number; gaps: number }> {
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", authorization: `Bearer ${CLUSTER_TOKEN}` },
  });
  if (response.body === null) throw new Error(`no SSE body from ${url}`);
  let count = 0;
  let gaps = 0;
  let last = 0;
  let done = false;
  const parser = createParser({
    onEvent: (message) => {
      const now = systemWallClock.nowMs();
      const event = JSON.parse(message.data) as { sequence: number; createdAt: string; type: string };
      if (event.sequence !== last + 1) gaps++;
      last = event.sequence;
      count++;
      samples.push(now - millisecondsOf(event.createdAt));
      if (event.type === "turn.completed") done = true;
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  while (!done) {
    const chunk = await reader.read();
    if (chunk.done) break;
    parser.feed(decoder.decode(chunk.value, { stream: true }));
  }
  await reader.cancel().catch(() => undefined);
  return { count, gaps };
}

async function run(setup: Setup): Promise<Result> {
  const nats = setup === "sqlite" ? undefined : await startNatsServer();
  const cluster = new ClusterNodes(nats?.url, 15_000);
  try {
    const names = ["a", "b", "c"].slice(0, setup === 3 ? 3 : 1);
    await Promise.all(names.map((name) => cluster.start(name)));
    const sessions: Array<{ id: string; owner: string }> = [];
    for (let i = 0; i < SESSIONS; i++) {
      const owner = names[i % names.length] as string;
      const created = await cluster.post(owner, "/v1/sessions", { provider: "codex" });
      if (created.status !== 201)
        throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      sessions.push({ id: String(created.body.id), owner });
    }
    const samples: number[] = [];
    const floor = await startHopFloor();
    floor.measure();
    const started = Date.now();
    const reading = sessions.flatMap(({ id, owner }, i) =>
      Array.from({ length: SUBSCRIBERS }, (_, j) => {
        // Through another node than the owner's when there is one.
        const via = names[(i + 1 + j) % names.length] as string;
        return subscribe(`${cluster.node(via).url}/v1/sessions/${id}/events`, samples).then((got) => ({
          ...got,
          owner,
        }));
      }),
    );
    await Promise.all(
      sessions.map(async ({ id, owner }) => {
        const turn = await cluster.post(owner, `/v1/sessions/${id}/turns`, {
          text: "mock:long a long answer",
        });
        if (turn.status !== 202) throw new Error(`turn: ${turn.status}`);
      }),
    );
    const got = await Promise.all(reading);
    const seconds = (Date.now() - started) / 1000;
    const floorP99Ms = floor.report().p99Ms;
    await floor.close();
    const rss = names.reduce((sum, name) => sum + peakRssMb(cluster.node(name).cli.child.pid), 0);
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
    const delivered = got.reduce((sum, g) => sum + g.count, 0);
    return {
      setup,
      seconds,
      delivered,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      gaps: got.reduce((sum, g) => sum + g.gaps, 0),
      stored: delivered / SUBSCRIBERS,
      floorP99Ms,
      peakRssMb: rss,
    };
  } finally {
    await cluster.dispose();
    await nats?.dispose();
  }
}

out(
  `serve: ${SESSIONS} codex sessions × ${SUBSCRIBERS} SSE subscribers, one mock:long turn each, Node ${process.version}`,
);
const SETUPS: Setup[] = ["sqlite", 1, 3];
const LABELS = { sqlite: "1 node, SQLite  ", 1: "1 node, --nats  ", 3: "3 nodes, --nats " } as const;
const results: Result[] = [];
// Interleaved, twice: the machine's other load falls on every setup alike.
for (const setup of [...SETUPS, ...SETUPS]) results.push(await run(setup));
for (const setup of SETUPS) {
  const runs = results.filter((r) => r.setup === setup);
  const best = runs.reduce((a, b) => (b.delivered / b.seconds > a.delivered / a.seconds ? b : a));
  out(
    `  ${LABELS[setup]} ${fmt(best.stored / best.seconds).padStart(5)} events/s stored, ` +
      `${fmt(best.delivered / best.seconds).padStart(5)}/s delivered (${fmt(best.delivered)} in ` +
      `${best.seconds.toFixed(1)} s), driver → subscriber p50 ${best.p50Ms.toFixed(1)} ms, p99 ${best.p99Ms.toFixed(0)} ms = ` +
      `${(best.p99Ms / Math.max(best.floorP99Ms, 0.001)).toFixed(0)} × the loopback hop's p99 ` +
      `(${best.floorP99Ms.toFixed(2)} ms), peak RSS ${fmt(best.peakRssMb)} MiB` +
      `${best.gaps === 0 ? ", no gap" : `, ${best.gaps} GAPS`} (best of ${runs.length})`,
  );
}
const hmac = hmacCostPerEvent();
out(
  `  cluster tag (HMAC-SHA256) per event: ${hmac.runNs.toFixed(0)} ns in a run of ${hmac.runLength} ` +
    `(${hmac.eventBytes}-byte events), ${hmac.singleNs.toFixed(0)} ns for a message of one; ` +
    `checked again by each reader: ${hmac.checkNs.toFixed(0)} ns`,
);
