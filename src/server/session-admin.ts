import { rm } from "node:fs/promises";
import type { SessionAdminPatch } from "../api/session-admin-schemas.js";
import type { RuntimeDriver } from "../contracts/driver.js";
import type { ProviderKind } from "../contracts/enums.js";
import { EventBuilder, raw } from "../kit/event-builder.js";
import { wallClockIso } from "../kit/wall-clock.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { SessionCommandError } from "./session-commands.js";
import type { SessionPaths } from "./session-paths.js";

const PAGE = 1_000;

/** What the admin commands need of the sessions this process runs. */
export interface AdminDeps {
  store: SessionStore;
  paths: SessionPaths;
  /** The session's live driver, once any launch under way has settled; undefined when its agent is not running. */
  liveDriver(sessionId: string): Promise<RuntimeDriver | undefined>;
  /** Stops the session's agent, if it runs here; resolves once `session.exited` is stored. */
  stop(sessionId: string): Promise<void>;
  clock?: () => string;
}

/**
 * `PATCH /v1/sessions/:id {title?, archived?}`: the registry takes both; a title is also a
 * `thread.metadata.updated` in the stream — through the running agent (Codex names its thread natively), or
 * appended after the last stored event when the agent has exited.
 */
export async function applyAdminPatch(
  deps: AdminDeps,
  record: SessionRecord,
  patch: SessionAdminPatch,
): Promise<SessionRecord> {
  const { store } = deps;
  if (patch.archived !== undefined) await store.updateSession(record.id, { archived: patch.archived });
  const title = patch.title;
  if (title !== undefined) {
    await store.updateSession(record.id, { title });
    const driver = await deps.liveDriver(record.id);
    if (driver?.rename !== undefined) await driver.rename(title);
    else await appendRenamed(deps, record, title);
  }
  return (await store.getSession(record.id)) ?? record;
}

/** The stream of an exited session gets its `thread.metadata.updated` from the host, numbered on. */
async function appendRenamed(deps: AdminDeps, record: SessionRecord, title: string): Promise<void> {
  const { store } = deps;
  let last = record.lastSequence;
  for (;;) {
    const page = await store.readEvents(record.id, last, PAGE);
    const tail = page.at(-1);
    if (tail === undefined) break;
    last = tail.sequence;
  }
  const now = (deps.clock ?? wallClockIso)();
  const builder = new EventBuilder({
    sessionId: record.id,
    provider: record.provider as ProviderKind,
    clock: () => now,
    sequenceAfter: last,
  });
  const event = builder.emit(
    "thread.metadata.updated",
    { name: title },
    { raw: raw("runtime.driver", { rename: { title } }) },
  );
  await store.append(record.id, [event]);
  await store.updateSession(record.id, { lastSequence: event.sequence, updatedAt: now });
}

/** `DELETE /v1/sessions/:id?purge=1`: the agent stopped, then every trace of the session under DATA/ and in the store. */
export async function purgeSession(deps: AdminDeps, record: SessionRecord): Promise<void> {
  const { store, paths } = deps;
  if (store.purgeSession === undefined)
    throw new SessionCommandError("unsupported", "this server's store cannot remove a session");
  await deps.stop(record.id);
  await store.purgeSession(record.id);
  const dirs = new Set([paths.stateDir(record.id), paths.workDir(record.id)]);
  if (record.native?.stateDir !== undefined) dirs.add(record.native.stateDir);
  for (const dir of dirs) if (paths.owns(dir)) await rm(dir, { recursive: true, force: true });
}
