import { availableParallelism } from "node:os";
import type { DriverProvider } from "../src/contracts/driver.js";
import { type ServerBenchResult, STEADY_AFTER_MS, serverBench } from "./server.js";

/**
 * BENCH_SERVER_SESSIONS (default 50), BENCH_SERVER_SUBSCRIBERS (5), BENCH_SERVER_PROVIDER (codex: the Codex
 * app server is the cheapest agent per session on 2 cores — one Rust process, no Node runtime of its own) and
 * BENCH_SERVER_MODEL (`process`: the mock model in a process of its own; `inline`: `serve --mock`).
 * BENCH_SERVER_CPU_PROF=DIR writes a CPU profile of the server process there. BENCH_SERVER_PACE=N (default 10,100: one load 2 cores carry, one that saturates them;
 * 0: unpaced; several, comma-separated, run one after another) has the mock model stream N deltas per second per session, like a real model: the paced run is the
 * added-latency figure; unpaced, the queue saturates and the run measures throughput only.
 * BENCH_SERVER_DURABILITY (normal | full) is `serve --durability` and BENCH_SERVER_AGENT_NICE (0–19)
 * `serve --agent-nice` (unset: the server's defaults).
 * BENCH_SERVER_SECONDS (default 40; 0: none) interrupts the turns still running that long after they were sent,
 * so that a slow pace still ends in bounded time. BENCH_SERVER_MODEL_IDLE=0 runs the mock model at the normal
 * priority instead of in SCHED_IDLE (it stands in for a model API on another machine).
 * BENCH_SERVER_SUBSCRIBER_THREADS=N runs the subscribers in N worker threads of this process (default 0: in its
 * main thread, as every run before it), the sessions dealt out among them.
 */
export async function* serverBenchesFromEnv(command: string[]): AsyncGenerator<ServerBenchResult> {
  for (const pace of pacesOf(process.env.BENCH_SERVER_PACE)) yield await serverBenchFromEnv(command, pace);
}

function serverBenchFromEnv(command: string[], pace: { pace?: number }): Promise<ServerBenchResult> {
  return serverBench({
    sessions: Number(process.env.BENCH_SERVER_SESSIONS ?? 50),
    subscribers: Number(process.env.BENCH_SERVER_SUBSCRIBERS ?? 5),
    provider: (process.env.BENCH_SERVER_PROVIDER ?? "codex") as DriverProvider,
    model: process.env.BENCH_SERVER_MODEL === "inline" ? "inline" : "process",
    ...pace,
    ...(process.env.BENCH_SERVER_SECONDS === "0"
      ? {}
      : { windowSeconds: Number(process.env.BENCH_SERVER_SECONDS ?? 40) }),
    ...durabilityOf(process.env.BENCH_SERVER_DURABILITY),
    ...(process.env.BENCH_SERVER_AGENT_NICE === undefined
      ? {}
      : { agentNice: Number(process.env.BENCH_SERVER_AGENT_NICE) }),
    ...(process.env.BENCH_SERVER_MODEL_IDLE === "0" ? { modelIdle: false } : {}),
    subscriberThreads: threadsOf(process.env.BENCH_SERVER_SUBSCRIBER_THREADS),
    ...(process.env.BENCH_SERVER_CPU_PROF === undefined
      ? {}
      : { cpuProfileDir: process.env.BENCH_SERVER_CPU_PROF }),
    command,
  });
}

function durabilityOf(text: string | undefined): { durability?: "full" | "normal" } {
  if (text === undefined || text === "") return {};
  if (text === "full" || text === "normal") return { durability: text };
  throw new Error(`BENCH_SERVER_DURABILITY must be full or normal, not "${text}"`);
}

function threadsOf(text: string | undefined): number {
  const threads = Number(text ?? 0);
  if (!Number.isInteger(threads) || threads < 0)
    throw new Error(`BENCH_SERVER_SUBSCRIBER_THREADS must be a whole number ≥ 0, not "${text}"`);
  return threads;
}

/** `BENCH_SERVER_PACE`: one pace or several, comma-separated (one run each); 0 is unpaced. */
function pacesOf(text: string | undefined): { pace?: number }[] {
  return (text ?? "10,100").split(",").map((part) => {
    const pace = Number(part);
    if (!Number.isFinite(pace) || pace < 0)
      throw new Error(`BENCH_SERVER_PACE must be numbers ≥ 0, comma-separated, not "${text}"`);
    return pace > 0 ? { pace } : {};
  });
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export function formatServerBench(result: ServerBenchResult): string[] {
  const { latency, steadyLatency: steady, hopFloor: hop, cores } = result;
  return [
    `serve --durability ${result.durability} --agent-nice ${result.agentNice} (${result.model === "inline" ? "--mock" : `--model-url: the mock model in its own process${result.modelIdle ? ", in SCHED_IDLE" : ""}`}): ${result.sessions} ${result.provider} sessions × ${result.subscribers} SSE subscribers (${result.subscriberThreads === 0 ? "in the bench's main thread" : `in ${result.subscriberThreads} worker threads`}), one mock:long turn each`,
    result.pace === undefined
      ? "  UNPACED: the mock streams as fast as it can, the queue saturates: a throughput figure, not added latency"
      : `  PACED: the mock streams ${fmt(result.pace)} deltas/s per session: the added latency, if the CPU line below leaves the machine room`,
    `  turns ${result.interrupted ? "interrupted after" : "took"} ${result.seconds.toFixed(1)} s: ${fmt(result.stored)} events stored (${fmt(result.storedPerSecond)}/s), ${fmt(result.delivered)} delivered (${fmt(result.deliveredPerSecond)}/s)`,
    `  driver → subscriber latency p50 ${latency.p50Ms.toFixed(1)} ms, p99 ${latency.p99Ms.toFixed(1)} ms, max ${latency.maxMs.toFixed(1)} ms over ${fmt(latency.samples)} deliveries`,
    `  after the turns' first ${STEADY_AFTER_MS / 1000} s (their start): p50 ${steady.p50Ms.toFixed(1)} ms, p99 ${steady.p99Ms.toFixed(1)} ms, max ${steady.maxMs.toFixed(1)} ms over ${fmt(steady.samples)} deliveries`,
    `  floor, same window: one loopback hop between two other processes p50 ${hop.p50Ms.toFixed(1)} ms, p99 ${hop.p99Ms.toFixed(1)} ms, max ${hop.maxMs.toFixed(1)} ms over ${fmt(hop.samples)} stamps (every delivery takes such a hop too)`,
    `  server peak RSS ${result.peakRssMb.toFixed(0)} MB; machine load average ${result.loadAverage.toFixed(1)} on ${availableParallelism()} cores`,
    `  CPU during the turns, in cores: server ${cores.server.toFixed(2)}, agents ${cores.agents.toFixed(2)}, mock model ${cores.model.toFixed(2)}, subscribers (this process) ${cores.subscribers.toFixed(2)}`,
    result.wire === undefined
      ? "  bytes per delivered event: no session to read"
      : `  bytes per delivered event (SSE, one session's ${fmt(result.wire.events)} events): ${fmt(result.wire.withRaw)} with the native records, ${fmt(result.wire.withoutRaw)} with raw=0 (${Math.round((100 * result.wire.withoutRaw) / result.wire.withRaw)}%)`,
    result.mismatches.length === 0
      ? "  nothing dropped: per session, events stored = emitted = delivered to each subscriber"
      : `  DROPPED: ${result.mismatches.join("; ")}`,
  ];
}
