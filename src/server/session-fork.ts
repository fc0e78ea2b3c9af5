import type { ForkBody } from "../api/session-admin-schemas.js";
import type { ForkSource } from "../contracts/driver.js";
import type { RuntimeEvent } from "../contracts/events.js";
import {
  earlierTurnUnsupported,
  type ForkAnchorOf,
  forkAnchorOf,
  forksWholeConversation,
  forkUnsupportedReason,
  TurnAnchors,
} from "../drivers/fork-anchors.js";
import { copyNativeHome } from "../drivers/fork-options.js";
import type { SessionRecord, SessionStore } from "../store/types.js";
import { SessionCommandError } from "./session-commands.js";

const PAGE = 1_000;

/**
 * What a fork of `parent` opens: the parent's native thread and the native mark of the turn asked for, read off
 * its stored events (so it holds for turns of runs before a crash too). 400 naming an unknown turn; 422 where the
 * provider cannot be forked here, or (ACP) cannot end a fork at that turn. Whether an ACP
 * agent can fork at all is known only once it answers `initialize`: the fork's driver refuses then.
 */
export async function forkSourceOf(
  store: SessionStore,
  parent: SessionRecord,
  body: ForkBody,
): Promise<ForkSource> {
  // an imported history forks through importedForkPlan, into a live session of the program that wrote it
  if (parent.origin !== "live") {
    throw new SessionCommandError(
      "unsupported",
      `session ${parent.id} is an imported ${parent.provider} history, not a live session`,
    );
  }
  const anchorOf = forkAnchorOf(parent.provider);
  if (anchorOf === undefined)
    throw new SessionCommandError("unsupported", forkUnsupportedReason(parent.provider));
  const nativeId = parent.native?.resumeId;
  if (nativeId === undefined)
    throw new SessionCommandError("conflict", `session ${parent.id} has no native thread yet to fork`);
  return forkPointOf(store, parent, body, { sessionId: parent.id, nativeId }, anchorOf);
}

/**
 * `source` with the turn the fork ends with and that turn's native mark, read off the parent's stored events by
 * `anchorOf`; `source` itself when no turn is asked for. 400 naming a turn that is unknown or has not ended.
 */
export async function forkPointOf(
  store: SessionStore,
  parent: SessionRecord,
  body: ForkBody,
  source: ForkSource,
  anchorOf: ForkAnchorOf,
): Promise<ForkSource> {
  const turnId = body.afterTurnId;
  if (turnId === undefined) return source;
  const anchors = new TurnAnchors(anchorOf);
  await eachStoredEvent(store, parent.id, (event) => anchors.observe(event));
  const nativeTurn = anchors.get(turnId);
  if (nativeTurn === undefined) {
    throw new SessionCommandError(
      "invalid",
      `afterTurnId: no completed turn ${turnId} in session ${parent.id}`,
      "afterTurnId",
    );
  }
  if (forksWholeConversation(parent.provider)) {
    if (anchors.latestTurnId !== turnId)
      throw new SessionCommandError("unsupported", earlierTurnUnsupported(turnId, anchors.latestTurnId));
    // the agent copies the whole conversation: no native mark to pass on
    return { ...source, turnId };
  }
  return { ...source, turnId, nativeTurn };
}

/** Every stored event of a session, in order, a page at a time. */
export async function eachStoredEvent(
  store: SessionStore,
  sessionId: string,
  visit: (event: RuntimeEvent) => void,
): Promise<void> {
  for (let after = 0; ; ) {
    const page = await store.readEvents(sessionId, after, PAGE);
    for (const event of page) visit(event);
    const tail = page.at(-1);
    if (tail === undefined) return;
    after = tail.sequence;
  }
}

/** The parent's native state (its CODEX_HOME, Claude's config dir) as the fork's own, where its agent finds the thread. */
export async function copyNativeState(from: string | undefined, to: string): Promise<void> {
  if (from === undefined) return;
  try {
    await copyNativeHome(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // a cluster node that took the parent over without its saved state, or a DATA dir cleaned by hand
    throw new SessionCommandError(
      "unavailable",
      `the parent's native state (${from}) is not on this node: its agent's thread cannot be forked here`,
    );
  }
}
