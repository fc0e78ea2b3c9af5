import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import { InspectorApi } from "../api.js";
import { forgetToken, readToken, saveToken } from "../token.js";
import { NewSessionForm } from "./NewSessionForm.js";
import { SessionList } from "./SessionList.js";
import { SessionView } from "./SessionView.js";
import { TokenForm } from "./TokenForm.js";

const LIST_POLL_MS = 2_000;

function selectedFromHash(): string | undefined {
  return new URLSearchParams(location.hash.replace(/^#/, "")).get("session") ?? undefined;
}

/** The inspector against a running `serve`: the token, the session list and the selected session. */
export function LiveApp() {
  const [token, setToken] = useState(() => readToken(location, history, sessionStorage));
  const [rejected, setRejected] = useState(false);
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [listError, setListError] = useState<string | undefined>();
  const [selected, setSelected] = useState(selectedFromHash);

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
    let live = true;
    const poll = async () => {
      try {
        const list = await api.listSessions();
        if (live) {
          setSessions(list.sessions);
          setListError(undefined);
        }
      } catch (e) {
        if (live) setListError(e instanceof Error ? e.message : String(e));
      }
    };
    void poll();
    const timer = setInterval(poll, LIST_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api]);

  useEffect(() => {
    const onHash = () => setSelected(selectedFromHash());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  const select = (id: string) => {
    history.replaceState(null, "", `#session=${encodeURIComponent(id)}`);
    setSelected(id);
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
  return (
    <div class="layout">
      <header class="topbar">
        <h1>provider-runtime inspector</h1>
        {listError && (
          <span class="error-text" role="alert">
            {listError}
          </span>
        )}
      </header>
      <aside class="sidebar">
        <NewSessionForm
          onCreate={async (body) => {
            const created = await api.createSession(body);
            setSessions((prev) => [...prev.filter((s) => s.id !== created.id), created]);
            select(created.id);
          }}
        />
        <SessionList sessions={sessions} selected={selected} onSelect={select} />
      </aside>
      <main class="main">
        {selected === undefined ? (
          <p class="meta">Pick a session or start one.</p>
        ) : (
          <SessionView
            key={selected}
            api={api}
            sessionId={selected}
            summary={sessions.find((s) => s.id === selected)}
            onUnauthorized={unauthorized}
          />
        )}
      </main>
    </div>
  );
}
