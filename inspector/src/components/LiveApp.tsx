import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import { InspectorApi } from "../api.js";
import type { StreamStatus } from "../event-stream.js";
import { followSessions } from "../session-feed.js";
import { forgetToken, readToken, saveToken } from "../token.js";
import { Inbox, openRequestCount } from "./Inbox.js";
import { NewSessionForm } from "./NewSessionForm.js";
import { SessionList } from "./SessionList.js";
import { SessionView } from "./SessionView.js";
import { TokenForm } from "./TokenForm.js";

const TITLE = "provider-runtime inspector";

function selectedFromHash(): string | undefined {
  return new URLSearchParams(location.hash.replace(/^#/, "")).get("session") ?? undefined;
}

/**
 * The inspector against a running `serve`: the token, the session list (pushed by the server), the inbox of
 * open requests and the selected session. Narrow screens show the session first, the rest in a drawer.
 */
export function LiveApp() {
  const [token, setToken] = useState(() => readToken(location, history, sessionStorage));
  const [rejected, setRejected] = useState(false);
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [listStatus, setListStatus] = useState<StreamStatus>("connecting");
  const [selected, setSelected] = useState(selectedFromHash);
  const [drawer, setDrawer] = useState(false);
  const [query, setQuery] = useState("");

  const unauthorized = useCallback(() => {
    forgetToken(sessionStorage);
    setRejected(true);
    setToken(undefined);
  }, []);
  const api = useMemo(
    () => (token === undefined ? undefined : new InspectorApi(location.origin, token, unauthorized)),
    [token, unauthorized],
  );

  useEffect(() => {
    if (api === undefined) return;
    return followSessions({
      url: api.sessionsUrl(),
      headers: (extra) => api.headers(extra),
      onSnapshot: setSessions,
      onSession: (session) =>
        setSessions((prev) => {
          const at = prev.findIndex((s) => s.id === session.id);
          if (at < 0) return [...prev, session];
          const next = prev.slice();
          next[at] = session;
          return next;
        }),
      onRemoved: (id) => setSessions((prev) => prev.filter((s) => s.id !== id)),
      onStatus: (status) => {
        setListStatus(status);
        if (status === "unauthorized") unauthorized();
      },
    });
  }, [api, unauthorized]);

  useEffect(() => {
    const onHash = () => setSelected(selectedFromHash());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  const waiting = openRequestCount(sessions);
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) ${TITLE}` : TITLE;
  }, [waiting]);

  const select = (id: string) => {
    history.replaceState(null, "", `#session=${encodeURIComponent(id)}`);
    setSelected(id);
    setDrawer(false);
  };

  if (api === undefined) {
    return (
      <main class="layout-single">
        <TokenForm
          rejected={rejected}
          onToken={(t) => {
            saveToken(sessionStorage, t);
            setRejected(false);
            setToken(t);
          }}
        />
      </main>
    );
  }
  const summary = sessions.find((s) => s.id === selected);
  return (
    <div class={`layout${drawer ? " drawer-open" : ""}${selected === undefined ? " nothing-selected" : ""}`}>
      <header class="topbar">
        <button
          type="button"
          class="drawer-toggle"
          aria-expanded={drawer}
          aria-controls="sidebar"
          onClick={() => setDrawer((open) => !open)}
        >
          Sessions{waiting > 0 && <span class="badge waiting">{waiting}</span>}
        </button>
        <h1>{TITLE}</h1>
        {listStatus !== "live" && listStatus !== "connecting" && (
          <span class="error-text" role="alert">
            {listStatus === "retrying" ? "session list: connection lost, reconnecting…" : "token refused"}
          </span>
        )}
      </header>
      <aside class="sidebar" id="sidebar" data-list-status={listStatus}>
        <Inbox api={api} sessions={sessions} onOpen={select} />
        <NewSessionForm
          onCreate={async (body) => {
            const created = await api.createSession(body);
            setSessions((prev) => [...prev.filter((s) => s.id !== created.id), created]);
            select(created.id);
          }}
        />
        <label class="search">
          Search sessions
          <input
            type="search"
            value={query}
            placeholder="title, provider, folder…"
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          />
        </label>
        <SessionList sessions={sessions} selected={selected} onSelect={select} query={query} />
      </aside>
      <main class="main">
        {selected === undefined ? (
          <p class="meta">Pick a session or start one.</p>
        ) : (
          <SessionView
            key={selected}
            api={api}
            sessionId={selected}
            summary={summary}
            onUnauthorized={unauthorized}
          />
        )}
      </main>
    </div>
  );
}
