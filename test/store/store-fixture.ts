import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from "../../src/store/sqlite-store.js";
import type { SessionRecord } from "../../src/store/types.js";

/** A data dir in the system temp dir, removed by `remove()`. */
export async function tempDataDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "provider-runtime-store-"));
  const dir = join(root, "data");
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}

/** Opens a store in a fresh temp dir; `dispose()` closes it and removes the dir. */
export async function tempStore(
  options: Partial<SqliteStoreOptions> = {},
): Promise<{ store: SqliteStore; dir: string; dispose: () => Promise<void> }> {
  const data = await tempDataDir();
  const store = await openSqliteStore({ dataDir: data.dir, ...options });
  return {
    store,
    dir: data.dir,
    dispose: async () => {
      await store.close();
      await data.remove();
    },
  };
}

/** The registry record of a live Codex session with no events yet. */
export const runningRecord = (id: string): SessionRecord => ({
  id,
  provider: "codex",
  origin: "live",
  createdAt: "2026-12-01T00:00:00.000Z",
  updatedAt: "2026-12-01T00:00:00.000Z",
  state: "running",
  lastSequence: 0,
  openRequests: 0,
  exited: false,
});

/**
 * A canonical `content.delta` event whose raw is `raw` (events made from one native record share it), for tests
 * that need many events of a session rather than a particular provider's.
 */
export function deltaEvent(sessionId: string, sequence: number, raw: object = { n: sequence }): RuntimeEvent {
  return {
    eventId: `${sessionId}:${sequence}`,
    sequence,
    provider: "codex",
    sessionId,
    createdAt: new Date(Date.UTC(2026, 11, 1, 0, 0, 0, sequence)).toISOString(),
    threadId: "thr_1",
    turnId: "turn_1",
    itemId: "item_1",
    type: "content.delta",
    payload: { streamKind: "assistant_text", delta: `d${sequence} ` },
    raw: { source: "codex.app-server.notification", method: "item/agentMessage/delta", payload: raw },
  } as unknown as RuntimeEvent;
}

export function deltaEvents(sessionId: string, from: number, count: number): RuntimeEvent[] {
  return Array.from({ length: count }, (_, index) => deltaEvent(sessionId, from + index));
}

export const lines = (events: readonly RuntimeEvent[]) => events.map((event) => JSON.stringify(event));
