import { type ChildProcess, spawn } from "node:child_process";
import { GUARD_GRACE_MS } from "./process-guard.js";

/**
 * A watcher for directories a host made for a session but no agent's guard owns (the CLI's scratch dir, which holds
 * the mock run's cwd and agent state): a tiny Node program that, when its control pipe closes without a release
 * (the host died, even by SIGKILL), removes them, and once more after the agents' guards have had time to end
 * their agents (GUARD_GRACE_MS, then SIGKILL), so that an agent still writing there cannot leave anything behind.
 */
const DIR_GUARD_SOURCE = `"use strict";
const { rmSync } = require("node:fs");
const { Socket } = require("node:net");
const cfg = JSON.parse(process.argv[1]);
const remove = () => { for (const dir of cfg.dirs) { try { rmSync(dir, { recursive: true, force: true }); } catch {} } };
let released = false;
const control = new Socket({ fd: 3, readable: true, writable: false });
control.setEncoding("utf8");
control.on("data", (text) => { if (text.includes("release")) released = true; });
control.on("error", () => {});
control.on("close", () => {
  if (released) process.exit(0);
  remove();
  setTimeout(() => { remove(); process.exit(0); }, cfg.againAfterMs);
});
`;

export interface DirGuard {
  /** The host removed the dirs itself: the watcher exits without touching anything. */
  release(): void;
}

/** Starts the watcher for `dirs` (absolute paths); it holds nothing open in the host's event loop. */
export function guardDirs(dirs: readonly string[]): DirGuard {
  const config = JSON.stringify({ dirs, againAfterMs: GUARD_GRACE_MS + 1_000 });
  // A session of its own: a terminal's Ctrl-C or a kill of the host's group does not end it before it has cleaned.
  const child: ChildProcess = spawn(process.execPath, ["-e", DIR_GUARD_SOURCE, config], {
    stdio: ["ignore", "ignore", "ignore", "pipe"],
    detached: true,
    env: {},
  });
  child.on("error", () => undefined);
  const control = child.stdio[3] as (NodeJS.WritableStream & { unref?: () => void }) | null;
  control?.on("error", () => undefined);
  control?.unref?.();
  child.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      control?.end("release\n");
    },
  };
}
