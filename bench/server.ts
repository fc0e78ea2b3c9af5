// The server section of `npm run bench`: N concurrent mock sessions on a real `serve` process, M SSE subscribers
// each (RemoteClient.follow, in this process), one `mock:long` turn per session. The mock model runs as a process
// of its own (`serve --model-url`), so the server's figures are not the mock's; `inline` runs it inside the server
// (`serve --mock`).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { RemoteClient } from "../src/client/index.js";
import type { DriverProvider } from "../src/contracts/driver.js";
import { idleSchedulerProgram } from "../src/drivers/agent-priority.js";
import { SCENARIO_PROMPTS } from "../src/mock-model/index.js";
import { ServeProcess } from "../test/server/support/serve-process.js";
import { wallNow } from "./followers.js";
import { type HopFloor, startHopFloor } from "./hop-floor.js";
import type { LatencySummary } from "./latency-histogram.js";
import { ownCpu, treeCpu } from "./process-cpu.js";
import { type SubscriberPool, startSubscribers } from "./subscribers.js";
import { type WireBytes, wireBytes } from "./wire-bytes.js";

export { STEADY_AFTER_MS } from "./followers.js";

const BENCH_TOKEN = "bench-token-0123456789";

export interface ServerBenchOptions {
  sessions: number;
  subscribers: number;
  provider: DriverProvider;
  /** Node arguments that run the CLI (bench/big-file.ts buildCli). */
  command: string[];
  /** Where the mock model runs: its own process (default) or inside the server. */
  model: "process" | "inline";
  /** A dir for a CPU profile of the server process (`node --cpu-prof`). */
  cpuProfileDir?: string;
  /** The mock model's SSE events (deltas) per second per stream, like a real model; unset: as fast as it can. */
  pace?: number;
  /** `serve --durability`; unset: the flag is left out (the server's default: normal). */
  durability?: "full" | "normal";
  /** Turns still running this many seconds after they were sent are interrupted (the window ends there). */
  windowSeconds?: number;
  /** `serve --agent-nice`; unset: the server's default (19). */
  agentNice?: number;
  /**
   * The mock model's process in SCHED_IDLE (default true, where chrt is installed). It stands in for a model API
   * on another machine: at the turns' start it parses 50 requests at once, CPU a real deployment does not share.
   */
  modelIdle?: boolean;
  /** Worker threads the subscribers run in; 0 (default): this thread (bench/subscribers.ts). */
  subscriberThreads?: number;
}

export interface ServerBenchResult {
  sessions: number;
  subscribers: number;
  provider: DriverProvider;
  model: "process" | "inline";
  pace: number | undefined;
  durability: "full" | "normal" | "default";
  agentNice: number | "default";
  /** The mock model ran in SCHED_IDLE. */
  modelIdle: boolean;
  subscriberThreads: number;
  seconds: number;
  /** The turns were interrupted at the window's end (else every turn completed). */
  interrupted: boolean;
  stored: number;
  delivered: number;
  storedPerSecond: number;
  deliveredPerSecond: number;
  latency: LatencySummary;
  /** The same after the turns' first STEADY_AFTER_MS (their start: 50 agents and the model at once). */
  steadyLatency: LatencySummary;
  /** One loopback hop between two otherwise idle processes in the same window (bench/hop-floor.ts). */
  hopFloor: LatencySummary;
  peakRssMb: number;
  /** The machine's 1-minute load average at the end (the machine may be shared). */
  loadAverage: number;
  /**
   * CPU used during the turns, in cores (CPU seconds / wall seconds): the server process, the agents below it
   * (and their guards), the mock model, this process (the subscribers). The machine has `availableParallelism()`.
   */
  cores: { server: number; agents: number; model: number; subscribers: number };
  /** Sessions whose counts differ (stored ≠ emitted or a subscriber's ≠ stored), with the counts. */
  mismatches: string[];
  /** SSE bytes per delivered event of the first session, with its native records and with `raw=0`. */
  wire: WireBytes | undefined;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** `provider-runtime mock-model` as a child process; resolves with its base URL and a way to end it. */
async function mockModelProcess(
  command: string[],
  pace: number | undefined,
  idleVia: string | undefined,
): Promise<{ baseUrl: string; pid: number; close(): void }> {
  const paceArgs = pace === undefined ? [] : ["--pace", String(pace)];
  const argv = [process.execPath, ...command, "mock-model", ...paceArgs];
  // chrt execs node: the child's pid is the model's
  const [program, ...args] = (idleVia === undefined ? argv : [idleVia, "--idle", "0", ...argv]) as [
    string,
    ...string[],
  ];
  const child = spawn(program, args, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await new Promise<string>((done, fail) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined) done(line.trim());
    });
    child.once("exit", (code) => fail(new Error(`mock-model exited (${code})`)));
  });
  return { baseUrl, pid: child.pid as number, close: () => child.kill("SIGTERM") };
}

export async function serverBench(options: ServerBenchOptions): Promise<ServerBenchResult> {
  if (options.model === "inline" && options.pace !== undefined)
    throw new Error("bench: a paced mock model runs in its own process (model: process)");
  const modelIdleVia =
    options.model === "process" && options.modelIdle !== false ? idleSchedulerProgram() : undefined;
  const model =
    options.model === "process"
      ? await mockModelProcess(options.command, options.pace, modelIdleVia)
      : undefined;
  const modelCpu = () => (model === undefined ? 0 : treeCpu(model.pid).own);
  const durability = options.durability ?? "default";
  const serve = await ServeProcess.start({
    command: options.command,
    ...(options.cpuProfileDir === undefined
      ? {}
      : { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] }),
    startTimeoutMs: 60_000,
    token: BENCH_TOKEN,
    extra: [
      ...(model === undefined ? ["--mock"] : ["--model-url", model.baseUrl]),
      ...(options.durability === undefined ? [] : ["--durability", options.durability]),
      ...(options.agentNice === undefined ? [] : ["--agent-nice", String(options.agentNice)]),
      // the sessions' cwds are made in the temp dir
      "--root",
      tmpdir(),
    ],
  }).catch((error: unknown) => {
    model?.close();
    ServeProcess.removeDirs();
    throw error;
  });
  const client = new RemoteClient({ baseUrl: serve.url, token: BENCH_TOKEN });
  let pool: SubscriberPool | undefined;
  let floor: HopFloor | undefined;
  const cwds: string[] = [];
  try {
    const ids: string[] = [];
    // created ten at a time: each creation starts an agent and waits for its handshake
    for (let i = 0; i < options.sessions; i += 10) {
      const batch = Array.from({ length: Math.min(10, options.sessions - i) }, async () => {
        const cwd = await mkdtemp(join(tmpdir(), "pr-bench-"));
        cwds.push(cwd);
        return (await client.createSession({ provider: options.provider, cwd })).id;
      });
      ids.push(...(await Promise.all(batch)));
    }
    await waitFor(async () => {
      const sessions = await client.listSessions();
      return ids.every((id) => sessions.find((s) => s.id === id)?.state === "ready");
    }, 180_000);
    const turnEnded = new Map<string, () => void>();
    const turnsDone = ids.map((id) => new Promise<void>((done) => turnEnded.set(id, done)));
    const subscribers = startSubscribers({
      connection: { baseUrl: serve.url, token: BENCH_TOKEN },
      ids,
      perSession: options.subscribers,
      threads: options.subscriberThreads ?? 0,
      onTurnEnd: (id) => turnEnded.get(id)?.(),
    });
    pool = subscribers;
    const lastSequences = async () =>
      new Map((await client.listSessions()).map((s) => [s.id, s.lastSequence]));
    const delivered = async () =>
      (await subscribers.state()).flatMap(([, counts]) => counts).reduce((a, b) => a + b, 0);
    // every subscriber has caught up with what the session stored so far before the turns start
    await waitFor(async () => {
      const stored = await lastSequences();
      return (await subscribers.state()).every(([id, , seen]) =>
        seen.every((sequence) => sequence > 0 && sequence === stored.get(id)),
      );
    }, 60_000);
    const before = await delivered();
    const storedBefore = (await client.listSessions()).reduce((sum, s) => sum + s.lastSequence, 0);
    const serverPid = serve.child.pid as number;
    const cpuBefore = { tree: treeCpu(serverPid), model: modelCpu(), own: ownCpu() };
    floor = await startHopFloor();
    const start = wallNow();
    subscribers.measureFrom(start);
    floor.measure();
    // Spread over one delta's interval: sessions sent at one instant would stream in lockstep, every session's
    // delta landing in the same millisecond, which real sessions (started at random times) do not.
    const spreadMs = options.pace === undefined ? 0 : 1000 / options.pace;
    await Promise.all(
      ids.map(async (id, index) => {
        await new Promise((resolve) => setTimeout(resolve, (index * spreadMs) / ids.length));
        await client.sendTurn(id, { text: `${SCENARIO_PROMPTS.long} bench` });
      }),
    );
    let interrupted = false;
    const window =
      options.windowSeconds === undefined
        ? undefined
        : setTimeout(() => {
            interrupted = true;
            // an event the interrupt causes is not of the paced load
            subscribers.measureUntil(wallNow());
            for (const id of ids) void client.interrupt(id).catch(() => undefined);
          }, options.windowSeconds * 1000);
    await Promise.all(turnsDone);
    clearTimeout(window);
    const seconds = (wallNow() - start) / 1000;
    subscribers.measureUntil(wallNow());
    const hopFloor = floor.report();
    const cpuAfter = { tree: treeCpu(serverPid), model: modelCpu(), own: ownCpu() };
    const cores = {
      server: (cpuAfter.tree.own - cpuBefore.tree.own) / seconds,
      agents: (cpuAfter.tree.descendants - cpuBefore.tree.descendants) / seconds,
      model: (cpuAfter.model - cpuBefore.model) / seconds,
      subscribers: (cpuAfter.own - cpuBefore.own) / seconds,
    };
    const storedDuring =
      (await client.listSessions()).reduce((sum, s) => sum + s.lastSequence, 0) - storedBefore;
    // delivered in the window: every subscriber has the turn's end by now (same stream, same events)
    await waitFor(async () => {
      const stored = await lastSequences();
      return (await subscribers.state()).every(([id, , seen]) =>
        seen.every((sequence) => sequence >= (stored.get(id) ?? 0)),
      );
    }, 60_000);
    const deliveredDuring = (await delivered()) - before;
    const latency = await subscribers.latency();
    await Promise.all(ids.map((id) => client.stop(id)));
    await subscribers.done;
    const counts = new Map((await subscribers.state()).map(([id, perSubscriber]) => [id, perSubscriber]));
    const peak = peakRssMb(serve.child.pid as number);
    const mismatches: string[] = [];
    for (const id of ids) {
      let stored = 0;
      let emitted = 0;
      for await (const event of client.readEvents(id)) {
        stored++;
        emitted = event.sequence;
      }
      const got = counts.get(id) ?? [];
      if (stored !== emitted || got.length !== options.subscribers || got.some((n) => n !== stored))
        mismatches.push(`${id}: emitted ${emitted}, stored ${stored}, delivered ${got.join("/")}`);
    }
    const first = ids[0];
    const firstLast = (await client.listSessions()).find((s) => s.id === first)?.lastSequence ?? 0;
    const wire =
      first === undefined || firstLast === 0
        ? undefined
        : await wireBytes(serve.url, BENCH_TOKEN, first, firstLast);
    return {
      sessions: options.sessions,
      subscribers: options.subscribers,
      provider: options.provider,
      model: options.model,
      pace: options.pace,
      durability,
      agentNice: options.agentNice ?? "default",
      modelIdle: modelIdleVia !== undefined,
      subscriberThreads: options.subscriberThreads ?? 0,
      seconds,
      interrupted,
      stored: storedDuring,
      delivered: deliveredDuring,
      storedPerSecond: storedDuring / seconds,
      deliveredPerSecond: deliveredDuring / seconds,
      latency: latency.all.summary(),
      steadyLatency: latency.steady.summary(),
      hopFloor,
      peakRssMb: peak,
      loadAverage: loadavg()[0] ?? 0,
      cores,
      mismatches,
      wire,
    };
  } finally {
    await floor?.close();
    await pool?.close();
    await serve.stop();
    ServeProcess.removeDirs();
    model?.close();
    await Promise.all(cwds.map((cwd) => rm(cwd, { recursive: true, force: true })));
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
