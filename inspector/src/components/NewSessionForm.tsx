import { useState } from "preact/hooks";
import type { API_PROVIDERS, CreateSessionBody } from "../../../src/api/schemas.js";

type Provider = (typeof API_PROVIDERS)[number];
/** The server's providers (a copy of API_PROVIDERS: importing the schemas would put zod in the page). */
const PROVIDERS: readonly Provider[] = ["codex", "codex-sdk", "claude", "cursor", "acp"];

/** An agent command line as typed: words apart by spaces, a quoted part one word. */
export function agentWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** Starts a session: provider, working directory, model, and for `acp` the agent's command. */
export function NewSessionForm({ onCreate }: { onCreate: (body: CreateSessionBody) => Promise<void> }) {
  const [provider, setProvider] = useState<Provider>("codex");
  const [cwd, setCwd] = useState("");
  const [model, setModel] = useState("");
  const [agent, setAgent] = useState("");
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
        ...(provider === "acp" && agentWords(agent).length > 0 ? { agent: agentWords(agent) } : {}),
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
      {provider === "acp" && (
        <label>
          Agent command
          <input
            type="text"
            value={agent}
            required
            list="known-acp-agents"
            placeholder="codex-acp, claude-agent-acp, or a command line"
            onInput={(e) => setAgent((e.target as HTMLInputElement).value)}
          />
        </label>
      )}
      <datalist id="known-acp-agents">
        <option value="codex-acp" />
        <option value="claude-agent-acp" />
      </datalist>
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
