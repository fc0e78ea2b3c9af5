import { useState } from "preact/hooks";
import type { TurnDelivery as Delivery } from "../../../src/contracts/commands.js";
import type { InlineAttachment as Attachment } from "../command-surface.js";
import { AttachmentPicker, readAttachment } from "./Attachments.js";

interface ComposerProps {
  onSend: (text: string, extra: { attachments?: Attachment[]; delivery?: Delivery }) => Promise<void>;
  onInterrupt: () => Promise<void>;
  onStop: () => Promise<void>;
  running: boolean;
  /** The server takes attachments with a turn (an image by picker or paste). */
  canAttach?: boolean;
  /** The server takes `delivery` (Steer / Queue while a turn runs). */
  canDeliver?: boolean;
}

/** The prompt box, with Interrupt and Stop (and where the server has them: attach, Steer, Queue). Ctrl+Enter sends. */
export function Composer({ onSend, onInterrupt, onStop, running, canAttach, canDeliver }: ComposerProps) {
  const [text, setText] = useState("");
  const [attached, setAttached] = useState<Attachment[]>([]);
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
  const send = (delivery?: Delivery) => {
    const prompt = text.trim();
    if (prompt.length === 0) return;
    void act(async () => {
      await onSend(prompt, {
        ...(attached.length > 0 ? { attachments: attached } : {}),
        ...(delivery === undefined ? {} : { delivery }),
      });
      setText("");
      setAttached([]);
    });
  };
  const add = (files: File[]) =>
    void act(async () => {
      const read = await Promise.all(files.map(readAttachment));
      setAttached((prev) => [...prev, ...read]);
    });
  const steering = canDeliver === true && running;
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
            send(steering ? "steer" : undefined);
          }
        }}
        onPaste={(e) => {
          if (canAttach !== true) return;
          const files = [...(e.clipboardData?.files ?? [])];
          if (files.length === 0) return;
          e.preventDefault();
          add(files);
        }}
      />
      {canAttach === true && (
        <AttachmentPicker
          attached={attached}
          disabled={busy}
          onAdd={add}
          onRemove={(i) => setAttached((prev) => prev.filter((_, at) => at !== i))}
        />
      )}
      <div class="buttons">
        {steering ? (
          <>
            <button type="button" disabled={busy || text.trim().length === 0} onClick={() => send("steer")}>
              Steer
            </button>
            <button type="button" disabled={busy || text.trim().length === 0} onClick={() => send("queue")}>
              Queue
            </button>
          </>
        ) : (
          <button type="submit" disabled={busy || text.trim().length === 0}>
            Send
          </button>
        )}
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
