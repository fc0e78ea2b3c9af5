// The bench's subscribers, in this thread or spread over worker threads. One thread parsing every delivery of
// 250 subscribers (~145 µs each) times its own queue and its own collections along with the server; 250 real
// clients would not share one event loop. BENCH_SERVER_SUBSCRIBER_THREADS chooses (bench/server-section.ts).
import { Worker } from "node:worker_threads";
import { Followers, type FollowState } from "./followers.js";
import { LatencyHistogram } from "./latency-histogram.js";

export interface SubscriberPool {
  measureFrom(at: number): void;
  measureUntil(at: number): void;
  state(): Promise<FollowState>;
  latency(): Promise<{ all: LatencyHistogram; steady: LatencyHistogram }>;
  /** Every subscriber's stream has ended (the sessions were stopped). */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

export interface PoolOptions {
  connection: { baseUrl: string; token: string };
  ids: readonly string[];
  perSession: number;
  /** 0: in this thread; N: N worker threads, the sessions dealt out among them. */
  threads: number;
  onTurnEnd: (id: string) => void;
}

export function startSubscribers(options: PoolOptions): SubscriberPool {
  if (options.threads === 0) return inThisThread(options);
  const shares = Array.from({ length: options.threads }, (_, k) =>
    options.ids.filter((_, index) => index % options.threads === k),
  ).filter((share) => share.length > 0);
  return inWorkers(shares.map((ids) => new SubscriberWorker({ ...options, ids })));
}

function inThisThread(options: PoolOptions): SubscriberPool {
  const followers = new Followers(options.connection, options.ids, options.perSession, options.onTurnEnd);
  return {
    measureFrom: (at) => followers.measureFrom(at),
    measureUntil: (at) => followers.measureUntil(at),
    state: async () => followers.state(),
    latency: async () => {
      const { all, steady } = followers.latency();
      return { all: merged([all]), steady: merged([steady]) };
    },
    done: followers.done,
    close: async () => undefined,
  };
}

function inWorkers(workers: SubscriberWorker[]): SubscriberPool {
  return {
    measureFrom: (at) => {
      for (const worker of workers) worker.post({ type: "measureFrom", at });
    },
    measureUntil: (at) => {
      for (const worker of workers) worker.post({ type: "measureUntil", at });
    },
    state: async () => (await Promise.all(workers.map((worker) => worker.ask("state")))).flat(),
    latency: async () => {
      const parts = await Promise.all(workers.map((worker) => worker.ask("latency")));
      return { all: merged(parts.map((p) => p.all)), steady: merged(parts.map((p) => p.steady)) };
    },
    done: Promise.all(workers.map((worker) => worker.done)).then(() => undefined),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}

function merged(parts: Parameters<LatencyHistogram["merge"]>[0][]): LatencyHistogram {
  const histogram = new LatencyHistogram();
  for (const part of parts) histogram.merge(part);
  return histogram;
}

/** What the main thread sends a worker, and what comes back (bench/subscriber-worker.ts). */
export type ToWorker =
  | { type: "measureFrom"; at: number }
  | { type: "measureUntil"; at: number }
  | { type: "ask"; what: "state" | "latency"; request: number };
export type FromWorker =
  | { type: "turnEnd"; id: string }
  | { type: "answer"; request: number; value: unknown }
  | { type: "done" };

interface Answers {
  state: FollowState;
  latency: ReturnType<Followers["latency"]>;
}

class SubscriberWorker {
  readonly done: Promise<void>;
  readonly #worker: Worker;
  readonly #waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #requests = 0;
  /** Why the worker stopped before close(): later questions fail at once instead of waiting forever. */
  #failure: Error | undefined;
  #closing = false;

  constructor(options: PoolOptions) {
    const { connection, ids, perSession } = options;
    const entry = new URL("./subscriber-worker.ts", import.meta.url).href;
    // tsx registered in the worker too (its --import does not reach worker threads)
    this.#worker = new Worker(new URL("./worker-boot.mjs", import.meta.url), {
      workerData: { entry, connection, ids, perSession },
    });
    let ended: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.done = new Promise<void>((resolve, reject) => {
      ended = resolve;
      failed = reject;
    });
    this.#worker.on("message", (message: FromWorker) => {
      if (message.type === "turnEnd") options.onTurnEnd(message.id);
      else if (message.type === "done") ended();
      else {
        this.#waiting.get(message.request)?.resolve(message.value);
        this.#waiting.delete(message.request);
      }
    });
    const stopped = (error: Error) => {
      this.#failure ??= error;
      failed(this.#failure);
      for (const { reject } of this.#waiting.values()) reject(this.#failure);
      this.#waiting.clear();
    };
    this.#worker.on("error", stopped);
    this.#worker.on("exit", (code) => {
      if (!this.#closing) stopped(new Error(`bench: a subscriber worker exited (code ${code})`));
    });
  }

  post(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  ask<K extends keyof Answers>(what: K): Promise<Answers[K]> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const request = ++this.#requests;
    return new Promise((resolve, reject) => {
      this.#waiting.set(request, { resolve: resolve as (value: unknown) => void, reject });
      this.post({ type: "ask", what, request });
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#worker.terminate();
  }
}
