import type { ThreadView } from "../../../src/projection/thread-view.js";
import { count, dateTime, usd } from "../format.js";
import { Subagents } from "./Subagents.js";

/** What is true of the whole session: state, model, usage, the current plan, subagents, tasks and errors. */
export function SessionSummaryPanel({
  view,
  title,
  createdAt,
}: {
  view: ThreadView;
  title?: string | undefined;
  createdAt?: string | undefined;
}) {
  const usage = view.tokenUsage;
  const model = typeof view.config.model === "string" ? view.config.model : undefined;
  const started = createdAt ?? view.turns[0]?.startedAt;
  return (
    <section class="summary" aria-label="Session summary">
      <h2>{title ?? view.thread.name ?? view.sessionId ?? "Session"}</h2>
      <dl class="facts">
        <div>
          <dt>Provider</dt>
          <dd>{view.provider ?? "–"}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd data-session-state={view.session.state}>{view.session.state}</dd>
        </div>
        {model && (
          <div>
            <dt>Model</dt>
            <dd>{model}</dd>
          </div>
        )}
        <div>
          <dt>Tokens</dt>
          <dd data-total-tokens={view.totals?.tokens}>
            {count(view.totals?.tokens)}
            {usage?.modelContextWindow ? ` of ${count(usage.modelContextWindow)}` : ""}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-total-cost={view.totals?.costUsd}>{usd(view.totals?.costUsd)}</dd>
        </div>
        {started && (
          <div>
            <dt>Started</dt>
            <dd>
              <time dateTime={started}>{dateTime(started)}</time>
            </dd>
          </div>
        )}
        <div>
          <dt>Events</dt>
          <dd>{count(view.eventCount)}</dd>
        </div>
        {view.warnings > 0 && (
          <div>
            <dt>Warnings</dt>
            <dd>{view.warnings}</dd>
          </div>
        )}
      </dl>
      {view.plan.steps.length > 0 && (
        <section class="plan" aria-label="Plan">
          <h3>Plan</h3>
          {view.plan.explanation && <p>{view.plan.explanation}</p>}
          <ol>
            {view.plan.steps.slice(0, 100).map((step, i) => (
              <li key={i} class={`step-${step.status}`}>
                <span class="step-status">{step.status}</span> {step.step}
              </li>
            ))}
          </ol>
        </section>
      )}
      <Subagents view={view} />
      {view.tasks.length > 0 && (
        <section class="tasks" aria-label="Tasks">
          <h3>Tasks</h3>
          <ul>
            {view.tasks.slice(-50).map((task) => (
              <li key={task.taskId}>
                <span class="badge">{task.status}</span> {task.description ?? task.taskId}
                {task.summary && <span class="meta"> — {task.summary}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.errors.length > 0 && (
        <div class="errors" role="alert">
          <h3>Errors</h3>
          <ul>
            {view.errors.slice(-20).map((error) => (
              <li key={error.sequence}>
                {error.class && <code>{error.class}</code>} {error.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
