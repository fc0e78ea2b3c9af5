import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import type { InspectorApi } from "../api.js";
import { EventLoaderContext } from "../event-loader.js";
import { followEvents, type StreamStatus } from "../event-stream.js";
import { useFollowScroll } from "../follow-scroll.js";
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

/**
 * One live session: its events followed over SSE, folded by the projection, drawn once per frame. The timeline
 * scrolls on its own and follows new output; the open requests and the composer stay below it, in view.
 */
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
  const scroller = useRef<HTMLDivElement>(null);
  const follow = useFollowScroll(scroller, version);
  const loadEvent = useCallback((sequence: number) => api.event(sessionId, sequence), [api, sessionId]);

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
    <EventLoaderContext.Provider value={loadEvent}>
      <div class="session" data-session-id={sessionId} data-last-sequence={thread.lastSequence}>
        <div class="session-scroll" ref={scroller} onScroll={follow.onScroll} data-follow={!follow.behind}>
          <p
            class={`stream-status status-${status}`}
            role="status"
            aria-live="polite"
            data-stream-status={status}
          >
            {STATUS_TEXT[status]}
            {readOnly && " · read-only history"}
          </p>
          <SessionSummaryPanel view={view} title={summary?.title} createdAt={summary?.createdAt} />
          <Timeline thread={thread} version={version} />
        </div>
        <div class="session-dock">
          {follow.behind && (
            <button type="button" class="jump-latest" onClick={follow.jump}>
              Jump to latest ↓
            </button>
          )}
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
                follow.jump();
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
      </div>
    </EventLoaderContext.Provider>
  );
}
