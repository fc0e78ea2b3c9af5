import { closeSync, fsyncSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { StoreHealth } from "./types.js";

/** SQLite's codes for a file it cannot write: a full disk, an I/O error, a file gone read-only. */
const WRITE_FAILURE = /^SQLITE_(FULL|IOERR|CANTOPEN|READONLY)/;
const PROBE_BYTES = 64 * 1024;
const PROBE_EVERY_MS = 1_000;

/**
 * Whether the store can write, for health: a commit that SQLite fails for want of space (or I/O) marks it down;
 * any commit that succeeds marks it up again. While it is down, a probe writes and removes a small file in the
 * data dir every second, so that a store with no session writing still comes back up when space returns.
 */
export class WriteHealth {
  #down: { since: string; error: string } | undefined;
  #probe: NodeJS.Timeout | undefined;

  constructor(readonly dataDir: string) {}

  get writable(): boolean {
    return this.#down === undefined;
  }

  /** A commit failed; true when it is a failure to write (as opposed to an op refused for its own reasons). */
  failed(error: unknown): boolean {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !WRITE_FAILURE.test(code)) return false;
    this.#down ??= { since: new Date().toISOString(), error: `${code}: ${(error as Error).message}` };
    this.#probe ??= setInterval(() => this.#tryProbe(), PROBE_EVERY_MS).unref();
    return true;
  }

  succeeded(): void {
    if (this.#down === undefined) return;
    this.#down = undefined;
    clearInterval(this.#probe);
    this.#probe = undefined;
  }

  health(): StoreHealth {
    const down = this.#down;
    return down === undefined
      ? { backend: "sqlite", connected: true }
      : { backend: "sqlite", connected: false, downSince: down.since, lastError: down.error };
  }

  close(): void {
    clearInterval(this.#probe);
    this.#probe = undefined;
  }

  #tryProbe(): void {
    const file = join(this.dataDir, ".write-probe");
    try {
      const fd = openSync(file, "w", 0o600);
      try {
        writeSync(fd, Buffer.alloc(PROBE_BYTES));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      rmSync(file, { force: true });
      return;
    }
    rmSync(file, { force: true });
    this.succeeded();
  }
}
