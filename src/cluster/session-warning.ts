import type { ProviderKind } from "../contracts/enums.js";
import { EventBuilder, raw } from "../kit/event-builder.js";
import { wallClockIso } from "../kit/wall-clock.js";
import type { SessionStore } from "../store/types.js";

const PAGE = 1_000;

/**
 * Appends a `runtime.warning` to a session no agent runs for here, numbered on from its last stored event. Only the
 * node holding the session's lease may call it (no other writer then), one at a time per session.
 */
export async function appendWarning(
  store: SessionStore,
  sessionId: string,
  message: string,
  detail: Record<string, unknown>,
): Promise<void> {
  let after = 0;
  let provider: ProviderKind | undefined;
  for (;;) {
    const page = await store.readEvents(sessionId, after, PAGE);
    const tail = page.at(-1);
    if (tail === undefined) break;
    after = tail.sequence;
    provider = tail.provider;
  }
  if (provider === undefined) {
    const record = await store.getSession(sessionId);
    provider = record?.provider as ProviderKind | undefined;
  }
  if (provider === undefined) return;
  const builder = new EventBuilder({ sessionId, provider, clock: wallClockIso, sequenceAfter: after });
  const warning = builder.emit(
    "runtime.warning",
    { message, detail },
    { raw: raw("runtime.driver", { hostWarning: { message, detail } }) },
  );
  await store.append(sessionId, [warning]);
}
