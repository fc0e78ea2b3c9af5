import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * Copies the WAL back into the database file from a thread of its own, so that the connection on the event loop
 * never does. SQLite's automatic checkpoint runs inside whichever COMMIT crosses the WAL's size limit: it copies
 * up to 4 MB of pages and fsyncs twice, and for those milliseconds (30–60 on the development machine) every
 * session's events wait. Here the writer's automatic checkpoint is off (`wal_autocheckpoint = 0`) and the thread
 * runs a PASSIVE checkpoint every `everyMs`: PASSIVE never blocks the writer.
 *
 * PASSIVE alone does not bound the WAL: SQLite starts the WAL over only when a write begins with every frame
 * copied, and under steady writes a new commit always lands while a checkpoint is still syncing. So once the WAL
 * holds more than `restartFrames` pages the thread raises `restarting` and runs a RESTART checkpoint (it waits
 * for the writer, copies the last frames, and makes the next write start the WAL over). The store holds its
 * writes in memory meanwhile instead of waiting on the lock, so the event loop keeps delivering; `onResumed` tells
 * it when to write again.
 *
 * The thread runs inline source (CommonJS, `eval`), not a file of this package: the same code then runs from
 * `src/` under a TypeScript loader and from `dist/`.
 */
export interface Checkpointer {
  /** A RESTART checkpoint is under way: writes should wait for `onResumed`. */
  readonly restarting: boolean;
  /** Stops the thread after its last checkpoint (the writer's own close then checkpoints what is left). */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  file: string;
  everyMs: number;
  /** WAL pages past which the thread restarts the WAL. */
  restartFrames: number;
  onResumed(): void;
  /** A checkpoint failed (the next one tries again). */
  onError(message: string): void;
  /** The thread ended without being asked to: the writer must checkpoint for itself again. */
  onLost(message: string): void;
}

const WORKER_SOURCE = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const state = new Int32Array(workerData.state);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 5000");
const failed = (error) => parentPort.postMessage({ error: String((error && error.message) || error) });
const checkpoint = () => {
  try {
    const { log } = db.pragma("wal_checkpoint(PASSIVE)")[0];
    if (log <= workerData.restartFrames) return;
    Atomics.store(state, 0, 1);
    try { db.pragma("wal_checkpoint(RESTART)"); } finally {
      Atomics.store(state, 0, 0);
      parentPort.postMessage({ resumed: true });
    }
  } catch (error) { failed(error); }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on("message", () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const module = createRequire(import.meta.url).resolve("better-sqlite3");
  const shared = new SharedArrayBuffer(4);
  const state = new Int32Array(shared);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      module,
      file: options.file,
      everyMs: options.everyMs,
      restartFrames: options.restartFrames,
      state: shared,
    },
  });
  worker.on("message", (message: { resumed?: true; error?: string }) => {
    if (message.error !== undefined) options.onError(message.error);
    if (message.resumed === true) options.onResumed();
  });
  let closing = false;
  let lostWhy = "it exited";
  worker.on("error", (error) => {
    lostWhy = error.message;
  });
  const exited = new Promise<void>((done) =>
    worker.once("exit", () => {
      if (!closing) {
        options.onLost(lostWhy);
        // a thread that died mid-RESTART left the flag up: the writes it held back go on
        if (Atomics.exchange(state, 0, 0) === 1) options.onResumed();
      }
      done();
    }),
  );
  // the store's owner decides when the process ends, not this thread
  worker.unref();
  return {
    get restarting() {
      return Atomics.load(state, 0) === 1;
    },
    async close() {
      closing = true;
      worker.ref(); // else a process with nothing else left to do would end before the thread has
      worker.postMessage("close");
      await exited;
    },
  };
}
