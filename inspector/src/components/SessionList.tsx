import type { SessionSummary } from "../../../src/api/schemas.js";
import { time } from "../format.js";

interface SessionListProps {
  sessions: SessionSummary[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}

/** Every session of the server, newest activity first. */
export function SessionList({ sessions, selected, onSelect }: SessionListProps) {
  const sorted = [...sessions].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  return (
    <nav class="sessions" aria-label="Sessions">
      <h2>Sessions</h2>
      {sorted.length === 0 && <p class="meta">No sessions yet.</p>}
      <ul>
        {sorted.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              class="session-button"
              aria-current={s.id === selected ? "true" : undefined}
              data-session-id={s.id}
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
              <span class="meta">last activity {time(s.updatedAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
