import { memoryUsage } from "node:process";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Keeps a long streaming run's resident memory flat. V8 lets the old generation grow long before it collects it
 * (a 1 GB `normalize` reached ~220 MB RSS while holding ~22 MB of live state); a full collection whenever RSS
 * passes `limitBytes` keeps it near the limit without a hard heap cap that would crash on a large line.
 */
export class HeapGuard {
  readonly #collect: (() => void) | undefined;
  #calls = 0;

  constructor(
    readonly limitBytes = 128 * 1024 * 1024,
    readonly checkEvery = 4_096,
  ) {
    this.#collect = exposedGc();
  }

  /** Call once per unit of work (a line); checks RSS every `checkEvery` calls. */
  tick(): void {
    if (++this.#calls % this.checkEvery !== 0 || this.#collect === undefined) return;
    if (memoryUsage.rss() > this.limitBytes) this.#collect();
  }
}

function exposedGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing !== undefined) return existing;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
