import { useState } from "preact/hooks";

interface ComposerProps {
  onSend: (text: string) => Promise<void>;
  onInterrupt: () => Promise<void>;
  onStop: () => Promise<void>;
  running: boolean;
}

/** The prompt box, with Interrupt and Stop. Ctrl/Cmd+Enter sends. */
export function Composer({ onSend, onInterrupt, onStop, running }: ComposerProps) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const act = async (action: () => Promise<void>) => {
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
  const send = () => {
    const prompt = text.trim();
    if (prompt.length === 0) return;
    void act(async () => {
      await onSend(prompt);
      setText("");
    });
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label for="prompt">Prompt</label>
      <textarea
        id="prompt"
        rows={3}
        value={text}
        placeholder="Ask the agent… (Ctrl+Enter sends)"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div class="buttons">
        <button type="submit" disabled={busy || text.trim().length === 0}>
          Send
        </button>
        <button type="button" disabled={busy || !running} onClick={() => void act(onInterrupt)}>
          Interrupt
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => void act(onStop)}>
          Stop
        </button>
      </div>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
