import { useMemo } from "preact/hooks";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { LiveThread } from "../live-thread.js";
import { RequestCard } from "./RequestCard.js";
import { SessionSummaryPanel } from "./SessionSummaryPanel.js";
import { Timeline } from "./Timeline.js";

/** `view --html`: a recorded stream drawn once, with no server and no network. */
export function StaticApp({ events }: { events: readonly RuntimeEvent[] }) {
  const thread = useMemo(() => {
    const t = new LiveThread();
    for (const event of events) t.accept(event);
    return t;
  }, [events]);
  const open = thread.view.requests.filter((r) => r.status === "open");
  return (
    <div class="layout-single">
      <header class="topbar">
        <h1>provider-runtime · recorded session</h1>
      </header>
      <main class="main">
        <div class="session" data-last-sequence={thread.lastSequence}>
          <SessionSummaryPanel view={thread.view} />
          <Timeline thread={thread} version={thread.version} />
          {open.length > 0 && (
            <section class="open-requests" aria-label="Requests left open">
              {open.map((request) => (
                <RequestCard key={request.requestId} request={request} />
              ))}
            </section>
          )}
        </div>
      </main>
    </div>
  );
}
