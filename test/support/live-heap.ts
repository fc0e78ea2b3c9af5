import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap in use after a full collection, for tests that check what long runs leave behind. */
export function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}
