import { Component } from "preact";
import type { RequestView, TurnView } from "../../../src/projection/thread-view.js";
import { count, time } from "../format.js";
import type { LiveThread } from "../live-thread.js";
import { requestNoun } from "../request-options.js";
import { ForkButton } from "./ForkButton.js";
import { Guard } from "./Guard.js";
import { GuardedItem } from "./ItemCard.js";
import { RawEvents } from "./RawEvents.js";

/**
 * The thread as turns of items; resolved requests are noted where they happened. `turnLimit` draws only the
 * first turns (a big recorded session is drawn in steps, so the page paints before all of it is laid out).
 */
export function Timeline({ thread, turnLimit }: { thread: LiveThread; version: number; turnLimit?: number }) {
  const view = thread.view;
  const turns = turnLimit === undefined ? view.turns : view.turns.slice(0, turnLimit);
  return (
    <section class="timeline" aria-label="Timeline">
      {thread.looseItems.map((item) => (
        <GuardedItem key={item.itemId} item={item} thread={thread} depth={0} />
      ))}
      {turns.map((turn, index) => (
        <Guard key={turn.turnId} what="turn" resetKey={thread.turnVersion(turn.turnId)}>
          <TurnSection
            turn={turn}
            index={index + 1}
            thread={thread}
            version={thread.turnVersion(turn.turnId)}
          />
        </Guard>
      ))}
    </section>
  );
}

interface TurnProps {
  turn: TurnView;
  index: number;
  thread: LiveThread;
  version: number;
}

class TurnSection extends Component<TurnProps> {
  override shouldComponentUpdate(next: TurnProps): boolean {
    return next.version !== this.props.version || next.turn !== this.props.turn;
  }

  override render() {
    const { turn, index, thread } = this.props;
    const requests = thread.view.requests.filter((r) => r.turnId === turn.turnId && r.status === "resolved");
    return (
      <section class={`turn turn-${turn.state}`} aria-label={`Turn ${index}`} data-turn-state={turn.state}>
        <header class="turn-head">
          <h3>Turn {index}</h3>
          <span class={`badge state-${turn.state}`}>{turn.state}</span>
          {turn.model && <span class="meta">{turn.model}</span>}
          <span class="meta">{time(turn.startedAt)}</span>
        </header>
        {turn.itemIds.map((id) => {
          const item = thread.item(id);
          if (item === undefined || !thread.isTopLevel(item)) return null;
          return <GuardedItem key={id} item={item} thread={thread} depth={0} />;
        })}
        {requests.map((request) => (
          <ResolvedRequest key={request.requestId} request={request} />
        ))}
        {turn.errorMessage && (
          <div class="error-text" role="note">
            {turn.errorMessage}
          </div>
        )}
        {turn.completedAt && (
          <Guard what="turn's end" resetKey={this.props.version}>
            <TurnFoot turn={turn} thread={thread} />
          </Guard>
        )}
      </section>
    );
  }
}

/** The line under a finished turn: its end, tokens and cost, fork and raw. */
function TurnFoot({ turn, thread }: { turn: TurnView; thread: LiveThread }) {
  return (
    <footer class="turn-foot" data-turn-end={turn.state}>
      Turn {turn.state}
      {turn.usage?.totalTokens !== undefined && <> · {count(turn.usage.totalTokens)} tokens</>}
      {turn.totalCostUsd !== undefined && <> · ${turn.totalCostUsd.toFixed(4)}</>}
      <ForkButton turnId={turn.turnId} />
      <RawEvents sequences={thread.sequencesOf(turn.turnId)} label="Raw" />
    </footer>
  );
}

function ResolvedRequest({ request }: { request: RequestView }) {
  return (
    <div class="request-resolved">
      {requestNoun(request.requestType)} {request.detail ? <code>{request.detail}</code> : null} →{" "}
      <strong>{request.decision ?? "answered"}</strong>
    </div>
  );
}
