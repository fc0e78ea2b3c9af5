import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import type { AgentInfo } from "../../../src/contracts/commands.js";
import { InspectorApi } from "../api.js";
import type { StreamStatus } from "../event-stream.js";
import { RoutesContext } from "../routes-context.js";
import { fetchRoutes, NO_ROUTES, type ServerRoutes } from "../server-routes.js";
import { followSessions } from "../session-feed.js";
import { forgetToken, readToken, saveToken } from "../token.js";
import { AgentsView } from "./AgentsView.js";
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
  const [routes, setRoutes] = useState<ServerRoutes>(NO_ROUTES);
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [showAgents, setShowAgents] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  /** Sessions the server's search found for the query (title and prompts), where it has the search. */
  const [found, setFound] = useState<Set<string> | undefined>();

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
    if (api === undefined) return;
    let live = true;
    void fetchRoutes(location.origin, api.headers()).then((read) => {
      if (!live) return;
      setRoutes(read);
      if (read.has("get", "/v1/agents"))
        api
          .listAgents()
          .then((body) => live && setAgents(body.agents))
          .catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, [api]);

  const serverSearch = routes.queryHas("get", "/v1/sessions", "q");
  useEffect(() => {
    const q = query.trim();
    if (api === undefined || !serverSearch || q.length === 0) {
      setFound(undefined);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      // the server leaves archived sessions out of a search unless asked for them alone
      Promise.all([
        api.searchSessions(q),
        ...(showArchived ? [api.searchSessions(q, { archived: true })] : []),
      ])
        .then((lists) => live && setFound(new Set(lists.flatMap((list) => list.sessions.map((s) => s.id)))))
        .catch(() => live && setFound(undefined));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, serverSearch, query, showArchived]);

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
  const capabilities = agents.find((a) => a.provider === summary?.provider && a.installed)?.capabilities;
  const archiving = routes.bodyHas("patch", "/v1/sessions/{id}", "archived");
  const listed = sessions.filter((s) => showArchived || s.archived !== true);
  return (
    <RoutesContext.Provider value={routes}>
      <div
        class={`layout${drawer ? " drawer-open" : ""}${selected === undefined ? " nothing-selected" : ""}`}
      >
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
          {routes.has("get", "/v1/agents") && (
            <button
              type="button"
              class="agents-toggle"
              aria-pressed={showAgents}
              onClick={() => setShowAgents((v) => !v)}
            >
              Agents
            </button>
          )}
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
          {archiving && (
            <label class="choice">
              <input
                type="checkbox"
                checked={showArchived}
                onChange={(e) => setShowArchived((e.target as HTMLInputElement).checked)}
              />{" "}
              Show archived
            </label>
          )}
          <SessionList
            sessions={listed}
            selected={selected}
            onSelect={select}
            query={query}
            {...(found === undefined ? {} : { found })}
          />
        </aside>
        <main class="main">
          {showAgents ? (
            <AgentsView api={api} onClose={() => setShowAgents(false)} />
          ) : selected === undefined ? (
            <p class="meta">Pick a session or start one.</p>
          ) : (
            <SessionView
              key={selected}
              api={api}
              sessionId={selected}
              summary={summary}
              onUnauthorized={unauthorized}
              capabilities={capabilities}
              onOpen={select}
              onDeleted={() => {
                setSessions((prev) => prev.filter((s) => s.id !== selected));
                history.replaceState(null, "", location.pathname);
                setSelected(undefined);
              }}
            />
          )}
        </main>
      </div>
    </RoutesContext.Provider>
  );
}
