import { useEffect, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import type { RequestView } from "../../../src/projection/thread-view.js";
import type { InspectorApi } from "../api.js";
import { Guard } from "./Guard.js";
import { RequestCard } from "./RequestCard.js";

interface Waiting {
  /** The summary's lastSequence when the requests were read: a newer one means read them again. */
  at: number;
  requests: RequestView[];
}

/** How many requests wait on the user across every live session (the tab title counts them). */
export function openRequestCount(sessions: readonly SessionSummary[]): number {
  return sessions.reduce((n, s) => n + (s.origin === "live" && !s.exited ? s.openRequests : 0), 0);
}

/**
 * Every open request of every session in one place, answerable here. The list's summaries say which sessions
 * wait; their requests are read from each one's thread view when its summary moves.
 */
export function Inbox({
  api,
  sessions,
  onOpen,
}: {
  api: InspectorApi;
  sessions: readonly SessionSummary[];
  onOpen: (sessionId: string) => void;
}) {
  const [waiting, setWaiting] = useState<Record<string, Waiting>>({});
  const asking = sessions.filter((s) => s.origin === "live" && !s.exited && s.openRequests > 0);
  const wanted = asking.map((s) => `${s.id}@${s.lastSequence}`).join(",");

  useEffect(() => {
    let live = true;
    for (const session of asking) {
      if (waiting[session.id]?.at === session.lastSequence) continue;
      void api
        .getSession(session.id)
        .then(({ view }) => {
          if (!live) return;
          const requests = view.requests.filter((r) => r.status === "open");
          setWaiting((prev) => ({ ...prev, [session.id]: { at: session.lastSequence, requests } }));
        })
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [api, wanted]);

  const groups = asking.flatMap((session) => {
    const requests = waiting[session.id]?.requests ?? [];
    return requests.length > 0 ? [{ session, requests }] : [];
  });
  const total = openRequestCount(sessions);
  return (
    <section class="inbox" aria-label="Waiting on you">
      <h2>
        Waiting on you <span class={`badge ${total > 0 ? "waiting" : ""}`}>{total}</span>
      </h2>
      {total === 0 && <p class="meta">Nothing waits for an answer.</p>}
      {groups.map(({ session, requests }) => (
        <div key={session.id} class="inbox-session" data-session-id={session.id}>
          <button type="button" class="link" onClick={() => onOpen(session.id)}>
            {session.provider} · {session.title ?? session.id}
          </button>
          {requests.map((request) => (
            <Guard key={request.requestId} what="request">
              <RequestCard
                request={request}
                onRespond={async (body) => {
                  await api.respond(session.id, request.requestId, body);
                }}
              />
            </Guard>
          ))}
        </div>
      ))}
    </section>
  );
}
