import { useEffect, useMemo, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import type { InspectorApi } from "../api.js";
import { followEvents, type StreamStatus } from "../event-stream.js";
import { LiveThread } from "../live-thread.js";
import { Composer } from "./Composer.js";
import { RequestCard } from "./RequestCard.js";
import { SessionSummaryPanel } from "./SessionSummaryPanel.js";
import { Timeline } from "./Timeline.js";

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: "connecting…",
  live: "live",
  retrying: "connection lost, reconnecting…",
  unauthorized: "token refused",
};

/** One live session: its events followed over SSE, folded by the projection, drawn once per frame. */
export function SessionView({
  api,
  sessionId,
  summary,
  onUnauthorized,
}: {
  api: InspectorApi;
  sessionId: string;
  summary: SessionSummary | undefined;
  onUnauthorized: () => void;
}) {
  const thread = useMemo(() => new LiveThread(), [sessionId]);
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<StreamStatus>("connecting");

  useEffect(() => {
    let frame = 0;
    const redraw = () => {
      frame = 0;
      setVersion(thread.version);
    };
    const stop = followEvents({
      url: (after) => api.eventsUrl(sessionId, after),
      headers: (extra) => api.headers(extra),
      lastSequence: () => thread.lastSequence,
      onEvent: (event) => {
        if (thread.accept(event) && frame === 0) frame = requestAnimationFrame(redraw);
      },
      onStatus: (next) => {
        setStatus(next);
        if (next === "unauthorized") onUnauthorized();
      },
      onMalformed: () => {
        thread.rejected++;
      },
    });
    return () => {
      stop();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [thread, api, sessionId, onUnauthorized]);

  const view = thread.view;
  const readOnly = summary?.origin === "import";
  const open = view.requests.filter((r) => r.status === "open");
  const running = view.session.state === "running" || view.session.state === "waiting";
  return (
    <div class="session" data-session-id={sessionId} data-last-sequence={thread.lastSequence}>
      <p
        class={`stream-status status-${status}`}
        role="status"
        aria-live="polite"
        data-stream-status={status}
      >
        {STATUS_TEXT[status]}
        {readOnly && " · read-only history"}
      </p>
      <SessionSummaryPanel view={view} title={summary?.title} />
      <Timeline thread={thread} version={version} />
      {open.length > 0 && (
        <section class="open-requests" aria-label="Open requests">
          {open.map((request) => (
            <RequestCard
              key={request.requestId}
              request={request}
              onRespond={
                readOnly
                  ? undefined
                  : async (body) => {
                      await api.respond(sessionId, request.requestId, body);
                    }
              }
            />
          ))}
        </section>
      )}
      {!readOnly && (
        <Composer
          running={running}
          onSend={async (text) => {
            await api.sendTurn(sessionId, text);
          }}
          onInterrupt={async () => {
            await api.interrupt(sessionId);
          }}
          onStop={async () => {
            await api.stop(sessionId);
          }}
        />
      )}
    </div>
  );
}
