import { cp, lstat } from "node:fs/promises";
import { basename } from "node:path";
import {
  type DriverOptions,
  type ForkOptions,
  type ForkSource,
  UnknownTurnError,
} from "../contracts/driver.js";
import type { TurnAnchors } from "./fork-anchors.js";

/**
 * The options of a fork's driver: the parent's, with the host's overrides, a fresh session (no resume, numbering
 * from 1) and `forkOf` naming the parent's thread and the native mark of the turn it ends with.
 */
export function forkDriverOptions<O extends DriverOptions>(
  parent: O,
  parentSessionId: string,
  nativeId: string,
  anchors: TurnAnchors,
  fork: ForkOptions,
  parentHome: string | undefined,
): O {
  const forkOf: ForkSource = { sessionId: parentSessionId, nativeId };
  if (fork.afterTurnId !== undefined) {
    const nativeTurn = anchors.get(fork.afterTurnId);
    if (nativeTurn === undefined) throw new UnknownTurnError(fork.afterTurnId);
    forkOf.turnId = fork.afterTurnId;
    forkOf.nativeTurn = nativeTurn;
  }
  if (parentHome !== undefined) forkOf.seedHome = parentHome;
  const { sessionId: _session, sequenceAfter: _after, resume: _resume, ...rest } = parent;
  return { ...rest, ...fork.options, forkOf } as O;
}

/** A fork's own (temp) native home starts as a copy of the parent's, where its agent finds the parent's thread. */
export async function seedHome(forkOf: ForkSource | undefined, home: string): Promise<void> {
  if (forkOf?.seedHome !== undefined) await copyNativeHome(forkOf.seedHome, home);
}

/**
 * A copy of a native home (CODEX_HOME, Claude's config dir, an ACP agent's state dir) for a fork. Codex's SQLite
 * databases stay behind: its state database holds absolute paths into the parent's home (it refuses a rollout
 * outside its own) and rebuilds what it needs from the copied rollouts. Other databases are the session store
 * itself (opencode's `opencode.db`) and are copied.
 */
export async function copyNativeHome(from: string, to: string): Promise<void> {
  if (from === to) return;
  await cp(from, to, {
    recursive: true,
    force: true,
    errorOnExist: false,
    filter: async (source) => !DATABASE.test(basename(source)) && copyable(source),
  });
}

const DATABASE = /\.sqlite(-wal|-shm|-journal)?$/;

/** Files, dirs and links: not the sockets and pipes a running agent keeps in its home (Claude Code's cc-socks). */
async function copyable(path: string): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  return info !== undefined && (info.isFile() || info.isDirectory() || info.isSymbolicLink());
}
