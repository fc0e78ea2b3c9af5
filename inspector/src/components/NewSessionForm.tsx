import { useState } from "preact/hooks";
import type { API_PROVIDERS, CreateSessionBody } from "../../../src/api/schemas.js";

type Provider = (typeof API_PROVIDERS)[number];
/** The server's providers (a copy of API_PROVIDERS: importing the schemas would put zod in the page). */
const PROVIDERS: readonly Provider[] = ["codex", "codex-sdk", "claude", "cursor", "acp"];

/** Starts a session: provider, working directory, model. */
export function NewSessionForm({ onCreate }: { onCreate: (body: CreateSessionBody) => Promise<void> }) {
  const [provider, setProvider] = useState<Provider>("codex");
  const [cwd, setCwd] = useState("");
  const [model, setModel] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onCreate({
        provider,
        ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
        ...(model.trim() ? { model: model.trim() } : {}),
      });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="new-session" onSubmit={submit} aria-label="New session">
      <h2>New session</h2>
      <label>
        Provider
        <select
          value={provider}
          onChange={(e) => setProvider((e.target as HTMLSelectElement).value as Provider)}
        >
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Working directory
        <input
          type="text"
          value={cwd}
          placeholder="server default"
          onInput={(e) => setCwd((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Model
        <input
          type="text"
          value={model}
          placeholder="provider default"
          onInput={(e) => setModel((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Start session
      </button>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
