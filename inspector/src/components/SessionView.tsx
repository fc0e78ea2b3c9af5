import { useCallback, useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import type { DriverCapabilities } from "../../../src/contracts/commands.js";
import type { InspectorApi } from "../api.js";
import { EventLoaderContext } from "../event-loader.js";
import { followEvents, type StreamStatus } from "../event-stream.js";
import { useFollowScroll } from "../follow-scroll.js";
import { LiveThread } from "../live-thread.js";
import { RoutesContext } from "../routes-context.js";
import { type TurnActions, TurnActionsContext } from "../turn-actions.js";
import { Composer } from "./Composer.js";
import { Guard } from "./Guard.js";
import { RequestCard } from "./RequestCard.js";
import { SessionControls } from "./SessionControls.js";
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
  capabilities,
  onOpen,
  onDeleted,
}: {
  api: InspectorApi;
  sessionId: string;
  summary: SessionSummary | undefined;
  onUnauthorized: () => void;
  /** The session's agent's capabilities, where the server lists them. */
  capabilities?: DriverCapabilities | undefined;
  /** Opens another session (a fork once made). */
  onOpen?: (sessionId: string) => void;
  onDeleted?: () => void;
}) {
  const routes = useContext(RoutesContext);
  const turnActions = useMemo<TurnActions>(
    () =>
      routes.has("post", "/v1/sessions/{id}/fork") && summary?.origin !== "import"
        ? {
            fork: async (turnId) => {
              const forked = await api.fork(sessionId, turnId);
              onOpen?.(forked.id);
            },
          }
        : {},
    [routes, api, sessionId, summary?.origin, onOpen],
  );
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
      <TurnActionsContext.Provider value={turnActions}>
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
            <Guard what="summary" resetKey={version}>
              <SessionSummaryPanel view={view} title={summary?.title} createdAt={summary?.createdAt} />
            </Guard>
            {summary !== undefined && (
              <SessionControls
                api={api}
                summary={summary}
                routes={routes}
                capabilities={capabilities}
                currentModel={typeof view.config.model === "string" ? view.config.model : undefined}
                currentMode={settingId(view.config.mode)}
                currentEffort={settingId(view.config.effort)}
                onDeleted={() => onDeleted?.()}
              />
            )}
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
                  <Guard key={request.requestId} what="request">
                    <RequestCard
                      request={request}
                      onRespond={
                        readOnly
                          ? undefined
                          : async (body) => {
                              await api.respond(sessionId, request.requestId, body);
                            }
                      }
                    />
                  </Guard>
                ))}
              </section>
            )}
            {!readOnly && (
              <Composer
                running={running}
                canAttach={routes.bodyHas("post", "/v1/sessions/{id}/turns", "attachments")}
                canDeliver={routes.bodyHas("post", "/v1/sessions/{id}/turns", "delivery")}
                onSend={async (text, extra) => {
                  follow.jump();
                  await api.sendTurn(sessionId, text, extra);
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
      </TurnActionsContext.Provider>
    </EventLoaderContext.Provider>
  );
}

/** A setting of `session.configured` as the pickers name it: a string, or a native mode's `{id}`. */
function settingId(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" ? id : undefined;
}
