import { useEffect, useMemo, useState } from "preact/hooks";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { EventLoaderContext } from "../event-loader.js";
import { LiveThread } from "../live-thread.js";
import { Guard } from "./Guard.js";
import { RequestCard } from "./RequestCard.js";
import { SessionSummaryPanel } from "./SessionSummaryPanel.js";
import { Timeline } from "./Timeline.js";

/** Turns drawn in the first frame, and added per step after it. */
const FIRST_TURNS = 20;
const TURNS_PER_STEP = 40;

/** `view --html`: a recorded stream drawn with no server and no network, a big one in steps. */
export function StaticApp({ events }: { events: readonly RuntimeEvent[] }) {
  const thread = useMemo(() => {
    const t = new LiveThread();
    for (const event of events) t.accept(event);
    return t;
  }, [events]);
  const total = thread.view.turns.length;
  const [shown, setShown] = useState(FIRST_TURNS);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setShown((n) => n + TURNS_PER_STEP), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  const complete = shown >= total;
  // `view --html` leaves the native records out of the page: a raw view is offered only where they are in it
  const loadEvent = useMemo(() => {
    if (!events.some((e) => e.raw !== undefined)) return undefined;
    let bySequence: Map<number, RuntimeEvent> | undefined;
    return async (sequence: number) => {
      bySequence ??= new Map(events.map((e) => [e.sequence, e]));
      return bySequence.get(sequence);
    };
  }, [events]);
  const open = thread.view.requests.filter((r) => r.status === "open");
  return (
    <EventLoaderContext.Provider value={loadEvent}>
      <div class="layout-single">
        <header class="topbar">
          <h1>provider-runtime · recorded session</h1>
        </header>
        <main class="main">
          <div class="session" data-last-sequence={complete ? thread.lastSequence : undefined}>
            <Guard what="summary" resetKey={thread.version}>
              <SessionSummaryPanel view={thread.view} />
            </Guard>
            <Timeline thread={thread} version={thread.version} turnLimit={shown} />
            {!complete && (
              <p class="meta" role="status">
                Drawing turn {shown} of {total}…
              </p>
            )}
            {open.length > 0 && (
              <section class="open-requests" aria-label="Requests left open">
                {open.map((request) => (
                  <Guard key={request.requestId} what="request">
                    <RequestCard request={request} />
                  </Guard>
                ))}
              </section>
            )}
          </div>
        </main>
      </div>
    </EventLoaderContext.Provider>
  );
}
