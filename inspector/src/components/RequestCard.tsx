import { useId, useState } from "preact/hooks";
import type { RespondBody } from "../../../src/api/schemas.js";
import type { RequestView } from "../../../src/projection/thread-view.js";
import { printJson } from "../format.js";
import { readQuestions } from "../questions.js";
import { DECISIONS, nativeOptions, requestTitle } from "../request-options.js";

interface RequestCardProps {
  request: RequestView;
  /** Absent for read-only history: the card shows the request without buttons. */
  onRespond?: ((body: RespondBody) => Promise<void>) | undefined;
}

/** An open request: what the agent asks, the options it offered, and the canonical answers as buttons. */
export function RequestCard({ request, onRespond }: RequestCardProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  // the same request may show twice (the inbox and its session): ids are per card, not per request
  const titleId = `${useId()}-title`;
  const send = async (body: RespondBody) => {
    if (onRespond === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      await onRespond(body);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  const options = nativeOptions(request.options);
  const isQuestion = request.requestType === "tool_user_input";
  return (
    <section class="request-card" aria-labelledby={titleId} data-request-type={request.requestType}>
      <h3 id={titleId}>{requestTitle(request.requestType)}</h3>
      {request.detail && (
        <p>
          <code>{request.detail}</code>
        </p>
      )}
      {request.args !== undefined && (
        <details>
          <summary>Parameters</summary>
          <pre>{printJson(request.args)}</pre>
        </details>
      )}
      {options.length > 0 && (
        <p class="native-options">
          Offered:{" "}
          {options.map((option, i) => (
            <span key={i} class="option" title={option.kind}>
              {option.label}
            </span>
          ))}
        </p>
      )}
      {isQuestion ? (
        <QuestionForm request={request} busy={busy || onRespond === undefined} onSend={send} />
      ) : (
        onRespond !== undefined && (
          <div class="buttons">
            {DECISIONS.map(({ decision, label }) => (
              <button
                key={decision}
                type="button"
                class={`decision decision-${decision}`}
                disabled={busy}
                onClick={() => void send({ decision })}
              >
                {label}
              </button>
            ))}
          </div>
        )
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function QuestionForm({
  request,
  busy,
  onSend,
}: {
  request: RequestView;
  busy: boolean;
  onSend: (body: RespondBody) => Promise<void>;
}) {
  const questions = readQuestions(request.questions);
  const uid = useId();
  const [answers, setAnswers] = useState<Record<string, string[]>>({});
  const [free, setFree] = useState<Record<string, string>>({});
  const pick = (id: string, label: string, multi: boolean, on: boolean) =>
    setAnswers((prev) => {
      const current = prev[id] ?? [];
      const next = multi ? (on ? [...current, label] : current.filter((l) => l !== label)) : [label];
      return { ...prev, [id]: next };
    });
  const submit = (e: Event) => {
    e.preventDefault();
    const out: Record<string, string | string[]> = {};
    for (const q of questions) {
      const typed = free[q.id]?.trim();
      const chosen = typed ? [typed] : (answers[q.id] ?? []);
      if (chosen.length > 0) out[q.id] = q.multiSelect ? chosen : (chosen[0] as string);
    }
    void onSend({ decision: "accept", answers: out });
  };
  const complete =
    questions.length > 0 && questions.every((q) => (answers[q.id]?.length ?? 0) > 0 || free[q.id]?.trim());
  return (
    <form class="questions" onSubmit={submit}>
      {questions.map((q, qi) => (
        <fieldset key={q.id}>
          <legend>
            {q.header && <strong>{q.header}: </strong>}
            {q.prompt}
          </legend>
          {q.options.map((option, oi) => {
            const id = `${uid}-q${qi}-${oi}`;
            return (
              <div key={id} class="choice">
                <input
                  id={id}
                  type={q.multiSelect ? "checkbox" : "radio"}
                  name={`${uid}-q${qi}`}
                  checked={(answers[q.id] ?? []).includes(option.label)}
                  onChange={(e) =>
                    pick(q.id, option.label, q.multiSelect, (e.target as HTMLInputElement).checked)
                  }
                />
                <label for={id}>
                  {option.label}
                  {option.description && <span class="meta"> — {option.description}</span>}
                </label>
              </div>
            );
          })}
          <label class="free">
            Other answer
            <input
              type="text"
              value={free[q.id] ?? ""}
              onInput={(e) => setFree((prev) => ({ ...prev, [q.id]: (e.target as HTMLInputElement).value }))}
            />
          </label>
        </fieldset>
      ))}
      <div class="buttons">
        <button type="submit" disabled={busy || !complete}>
          Send answers
        </button>
        <button type="button" disabled={busy} onClick={() => void onSend({ decision: "cancel" })}>
          Cancel
        </button>
      </div>
    </form>
  );
}
