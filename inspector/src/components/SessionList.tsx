import type { SessionSummary } from "../../../src/api/schemas.js";
import { dateTime } from "../format.js";

interface SessionListProps {
  sessions: SessionSummary[];
  selected: string | undefined;
  onSelect: (id: string) => void;
  /** Words the list is narrowed to (every word in the title, provider, cwd, state or id). */
  query?: string;
  /** Sessions the server's search matched (prompts too): shown beside the ones the words match here. */
  found?: ReadonlySet<string>;
}

function matches(session: SessionSummary, words: string[]): boolean {
  if (words.length === 0) return true;
  const text = [session.title, session.provider, session.cwd, session.state, session.id, session.model]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Every session of the server, newest activity first, each with its state, open requests and dates. */
export function SessionList({ sessions, selected, onSelect, query = "", found }: SessionListProps) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const titles = new Map(sessions.map((s) => [s.id, s.title ?? s.id]));
  const shown = sessions
    .filter((s) => matches(s, words) || found?.has(s.id) === true)
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  return (
    <nav class="sessions" aria-label="Sessions">
      <h2>Sessions</h2>
      {sessions.length === 0 && <p class="meta">No sessions yet.</p>}
      {sessions.length > 0 && shown.length === 0 && <p class="meta">No session matches.</p>}
      <ul>
        {shown.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              class="session-button"
              aria-current={s.id === selected ? "true" : undefined}
              data-session-id={s.id}
              data-state={s.state}
              onClick={() => onSelect(s.id)}
            >
              <span class="session-line">
                <strong>{s.provider}</strong>
                <span class={`badge state-${s.state}`}>{s.state}</span>
                {s.openRequests > 0 && (
                  <span class="badge waiting">
                    {s.openRequests} open {s.openRequests === 1 ? "request" : "requests"}
                  </span>
                )}
                {s.origin === "import" && <span class="badge">history</span>}
              </span>
              <span class="session-title">{s.title ?? s.id}</span>
              {s.parentId !== undefined && (
                <span class="meta forked-from" data-parent-id={s.parentId}>
                  forked from {titles.get(s.parentId) ?? s.parentId}
                </span>
              )}
              {s.archived === true && <span class="badge">archived</span>}
              <span class="meta session-dates">
                started <time dateTime={s.createdAt}>{dateTime(s.createdAt)}</time> · last{" "}
                <time dateTime={s.updatedAt}>{dateTime(s.updatedAt)}</time>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
