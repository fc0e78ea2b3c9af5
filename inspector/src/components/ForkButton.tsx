import { useContext, useState } from "preact/hooks";
import { TurnActionsContext } from "../turn-actions.js";

/** "Fork from here" under a finished turn: a new session with the conversation up to this turn. */
export function ForkButton({ turnId }: { turnId: string }) {
  const { fork } = useContext(TurnActionsContext);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  if (fork === undefined) return null;
  return (
    <>
      <button
        type="button"
        class="link fork"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(undefined);
          fork(turnId)
            .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
            .finally(() => setBusy(false));
        }}
      >
        Fork from here
      </button>
      {error && <span class="error-text"> {error}</span>}
    </>
  );
}
