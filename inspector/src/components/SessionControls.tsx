import { useState } from "preact/hooks";
import type { SessionSummary } from "../../../src/api/schemas.js";
import type { SessionPatchBody } from "../../../src/api/session-admin-schemas.js";
import { CANONICAL_MODES, type DriverCapabilities, EFFORT_LEVELS } from "../../../src/contracts/commands.js";
import type { InspectorApi } from "../api.js";
import type { ServerRoutes } from "../server-routes.js";

const SESSION = "/v1/sessions/{id}";

interface SessionControlsProps {
  api: InspectorApi;
  summary: SessionSummary;
  routes: ServerRoutes;
  /** What the session's agent can change (from `GET /v1/agents`), where the server says. */
  capabilities: DriverCapabilities | undefined;
  currentModel: string | undefined;
  /** The session's settings as its stream last said (`session.configured`): the pickers show them. */
  currentMode?: string | undefined;
  currentEffort?: string | undefined;
  onDeleted: () => void;
}

/**
 * A session's settings and housekeeping, each through its route (DESIGN.md §9): model, mode and effort
 * (`PATCH`), rename and archive (`PATCH`), delete (`DELETE ?purge=1`). Shown only where the server has the route.
 */
export function SessionControls({
  api,
  summary,
  routes,
  capabilities,
  currentModel,
  currentMode,
  currentEffort,
  onDeleted,
}: SessionControlsProps) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // each control only where the PATCH body takes its field: [control] brings the settings, [sessions] title and archived
  const canPatch = (field: string) => routes.bodyHas("patch", SESSION, field);
  const canPurge = routes.queryHas("delete", SESSION, "purge");
  if (!["model", "mode", "effort", "title", "archived"].some(canPatch) && !canPurge) return null;
  const readOnly = summary.origin === "import";
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const patch = (body: SessionPatchBody) => run(() => api.configure(summary.id, body));
  return (
    <section class="session-controls" aria-label="Session settings">
      {canPatch("model") && !readOnly && capabilities?.setModel !== false && (
        <Picker
          label="Model"
          value={currentModel ?? summary.model ?? ""}
          options={(capabilities?.models ?? []).map((m) => ({ id: m.id, name: m.name ?? m.id }))}
          disabled={busy}
          onPick={(model) => patch({ model })}
        />
      )}
      {canPatch("mode") && !readOnly && capabilities?.setMode !== false && (
        <Picker
          label="Mode"
          value={currentMode ?? ""}
          options={
            capabilities?.modes !== undefined && capabilities.modes.length > 0
              ? capabilities.modes.map((m) => ({ id: m.id, name: m.name }))
              : CANONICAL_MODES.map((m) => ({ id: m, name: m }))
          }
          disabled={busy}
          onPick={(mode) => patch({ mode })}
        />
      )}
      {canPatch("effort") && !readOnly && capabilities?.effort !== false && (
        <Picker
          label="Effort"
          value={currentEffort ?? ""}
          options={EFFORT_LEVELS.map((e) => ({ id: e, name: e }))}
          disabled={busy}
          onPick={(effort) => patch({ effort: effort as SessionPatchBody["effort"] })}
        />
      )}
      {canPatch("title") && (
        <Rename title={summary.title ?? ""} disabled={busy} onRename={(title) => patch({ title })} />
      )}
      {canPatch("archived") && (
        <button
          type="button"
          disabled={busy}
          onClick={() => void patch({ archived: summary.archived !== true })}
        >
          {summary.archived === true ? "Unarchive" : "Archive"}
        </button>
      )}
      {canPurge && (
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => {
            if (!confirm("Delete this session, its stored events and its agent's state?")) return;
            void run(async () => {
              await api.deleteSession(summary.id);
              onDeleted();
            });
          }}
        >
          Delete
        </button>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** A select of the offered values, or a text field where the agent lists none; a pick is sent at once. */
function Picker({
  label,
  value,
  options,
  disabled,
  onPick,
}: {
  label: string;
  value: string;
  options: Array<{ id: string; name: string }>;
  disabled: boolean;
  onPick: (value: string) => void;
}) {
  const [typed, setTyped] = useState(value);
  if (options.length === 0) {
    return (
      <form
        class="picker"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) onPick(typed.trim());
        }}
      >
        <label>
          {label}
          <input
            type="text"
            aria-label={label}
            value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={disabled || !typed.trim()}>
          Set
        </button>
      </form>
    );
  }
  return (
    <label class="picker">
      {label}
      <select
        aria-label={label}
        value={value}
        disabled={disabled}
        onChange={(e) => {
          const picked = (e.target as HTMLSelectElement).value;
          if (picked) onPick(picked);
        }}
      >
        <option value="">{value ? value : "choose…"}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function Rename({
  title,
  disabled,
  onRename,
}: {
  title: string;
  disabled: boolean;
  onRename: (title: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(title);
  if (!editing) {
    return (
      <button
        type="button"
        disabled={disabled}
        onClick={() => {
          setText(title);
          setEditing(true);
        }}
      >
        Rename
      </button>
    );
  }
  return (
    <form
      class="picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onRename(text.trim());
        setEditing(false);
      }}
    >
      <label>
        Title
        <input type="text" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" disabled={disabled || !text.trim()}>
        Save
      </button>
    </form>
  );
}
