import type { RuntimeEvent } from "../contracts/events.js";
import {
  emptyThreadView,
  type ItemView,
  type ItemViewFields,
  type RequestView,
  type ThreadView,
  type TurnView,
} from "./thread-view.js";

const TEXT_STREAMS = new Set([
  "assistant_text",
  "reasoning_text",
  "reasoning_summary_text",
  "plan_text",
  "unknown",
]);

/**
 * Folds canonical events into a thread view. Mutates and returns `view` (callers own it), with indexes kept
 * beside it so each event costs O(1).
 */
export class ThreadProjector {
  readonly view: ThreadView;
  readonly #turns = new Map<string, TurnView>();
  readonly #items = new Map<string, ItemView>();
  readonly #requests = new Map<string, RequestView>();
  readonly #usage = { turnTokens: 0, threadTokens: undefined as number | undefined, costBefore: 0, cost: 0 };

  constructor(view: ThreadView = emptyThreadView()) {
    this.view = view;
  }

  apply(event: RuntimeEvent): void {
    const view = this.view;
    view.eventCount++;
    view.sessionId ??= event.sessionId;
    view.provider ??= event.provider;
    if (event.threadId !== undefined) view.threadId ??= event.threadId;
    // The view is of the session's thread (the first one seen): a subagent's thread (Codex runs each in one of its
    // own) does not change its state, name, native id or token usage.
    if (event.type.startsWith("thread.") && event.threadId !== undefined && event.threadId !== view.threadId)
      return;

    switch (event.type) {
      case "session.started":
        if (view.session.state === "unknown") view.session.state = "starting";
        // a new agent process: a provider's running cost starts again from zero
        this.#usage.costBefore += this.#usage.cost;
        this.#usage.cost = 0;
        break;
      case "session.configured":
        Object.assign(view.config, event.payload.config);
        break;
      case "session.state.changed":
        view.session.state = event.payload.state;
        break;
      case "session.exited":
        view.session.state = event.payload.exitKind === "error" ? "error" : "stopped";
        if (event.payload.exitKind !== undefined) view.session.exitKind = event.payload.exitKind;
        if (event.payload.reason !== undefined) view.session.exitReason = event.payload.reason;
        break;
      case "thread.started":
        if (event.payload.providerThreadId !== undefined)
          view.providerThreadId = event.payload.providerThreadId;
        if (view.thread.state === "unknown") view.thread.state = "active";
        break;
      case "thread.state.changed":
        view.thread.state = event.payload.state;
        break;
      case "thread.metadata.updated":
        if (event.payload.name !== undefined) view.thread.name = event.payload.name;
        if (event.payload.metadata !== undefined) Object.assign(view.thread.metadata, event.payload.metadata);
        break;
      case "thread.token-usage.updated":
        view.tokenUsage = event.payload.usage;
        this.#usage.threadTokens = amount(event.payload.usage.total.totalTokens) ?? this.#usage.threadTokens;
        this.#updateTotals();
        break;
      case "turn.started":
        this.#startTurn(event);
        break;
      case "turn.completed": {
        const turn = this.#turn(event.turnId, event.createdAt);
        if (turn === undefined) break;
        turn.state = event.payload.state;
        turn.completedAt = event.createdAt;
        if (event.payload.stopReason !== undefined) turn.stopReason = event.payload.stopReason;
        if (event.payload.errorMessage !== undefined) turn.errorMessage = event.payload.errorMessage;
        if (event.payload.usage !== undefined) turn.usage = event.payload.usage;
        if (event.payload.totalCostUsd !== undefined) turn.totalCostUsd = event.payload.totalCostUsd;
        this.#usage.turnTokens += amount(event.payload.usage?.totalTokens) ?? 0;
        this.#usage.cost = amount(event.payload.totalCostUsd) ?? this.#usage.cost;
        this.#updateTotals();
        break;
      }
      case "turn.aborted": {
        const turn = this.#turn(event.turnId, event.createdAt);
        if (turn === undefined) break;
        turn.state = "interrupted";
        turn.completedAt = event.createdAt;
        turn.errorMessage = event.payload.reason;
        break;
      }
      case "turn.plan.updated":
        view.plan = { explanation: event.payload.explanation ?? null, steps: event.payload.plan };
        break;
      case "turn.diff.updated":
        view.diff = event.payload.unifiedDiff;
        break;
      case "item.started":
      case "item.updated":
      case "item.completed":
        this.#applyItem(event);
        break;
      case "content.delta": {
        if (event.itemId === undefined) break;
        const item = this.#item(event.itemId, event);
        if (TEXT_STREAMS.has(event.payload.streamKind)) item.text += event.payload.delta;
        else item.output += event.payload.delta;
        break;
      }
      case "request.opened": {
        const request = this.#request(event.requestId, event.payload.requestType, event.turnId);
        if (request === undefined) break;
        if (event.payload.detail !== undefined) request.detail = event.payload.detail;
        if (event.payload.args !== undefined) request.args = event.payload.args;
        if (event.payload.options !== undefined) request.options = event.payload.options;
        break;
      }
      case "user-input.requested": {
        const request = this.#request(event.requestId, "tool_user_input", event.turnId);
        if (request !== undefined) request.questions = event.payload.questions;
        break;
      }
      case "user-input.resolved": {
        const request = this.#request(event.requestId, "tool_user_input", event.turnId);
        if (request !== undefined) request.answers = event.payload.answers;
        break;
      }
      case "request.resolved": {
        const request = this.#request(event.requestId, event.payload.requestType, event.turnId);
        if (request === undefined) break;
        request.status = "resolved";
        if (event.payload.decision !== undefined) request.decision = event.payload.decision;
        if (event.payload.resolution !== undefined) request.resolution = event.payload.resolution;
        break;
      }
      case "task.started":
        view.tasks.push({
          taskId: event.payload.taskId,
          status: "running",
          ...optional("description", event.payload.description),
        });
        break;
      case "task.completed": {
        const task = view.tasks.find((t) => t.taskId === event.payload.taskId);
        if (task !== undefined) {
          task.status = event.payload.status;
          if (event.payload.summary !== undefined) task.summary = event.payload.summary;
        }
        break;
      }
      case "runtime.error":
        view.errors.push({
          sequence: event.sequence,
          message: event.payload.message,
          ...optional("class", event.payload.class),
        });
        break;
      case "runtime.warning":
        view.warnings++;
        break;
      default:
        break;
    }
  }

  #updateTotals(): void {
    const usage = this.#usage;
    const tokens = usage.threadTokens ?? (usage.turnTokens > 0 ? usage.turnTokens : undefined);
    const cost = usage.costBefore + usage.cost;
    if (tokens === undefined && cost === 0) return;
    this.view.totals = {
      ...(tokens === undefined ? {} : { tokens }),
      ...(cost === 0 ? {} : { costUsd: cost }),
    };
  }

  #startTurn(event: Extract<RuntimeEvent, { type: "turn.started" }>): void {
    if (event.turnId === undefined) return;
    const turn = this.#turn(event.turnId, event.createdAt);
    if (turn === undefined) return;
    turn.state = "running";
    if (event.payload.model !== undefined) turn.model = event.payload.model;
  }

  #turn(turnId: string | undefined, at: string): TurnView | undefined {
    if (turnId === undefined) return undefined;
    let turn = this.#turns.get(turnId);
    if (turn === undefined) {
      turn = { turnId, state: "running", startedAt: at, itemIds: [] };
      this.#turns.set(turnId, turn);
      this.view.turns.push(turn);
    }
    return turn;
  }

  #applyItem(
    event: Extract<RuntimeEvent, { type: "item.started" | "item.updated" | "item.completed" }>,
  ): void {
    if (event.itemId === undefined) return;
    // Type and details change together: written through a loose view of the item (the union cannot be).
    const item = this.#item(event.itemId, event) as ItemViewFields & { itemType: string; details?: unknown };
    const payload = event.payload;
    item.itemType = payload.itemType;
    if (payload.status !== undefined) item.status = payload.status;
    else if (event.type === "item.completed") item.status = "completed";
    if (payload.title !== undefined) item.title = payload.title;
    if (payload.detail !== undefined) item.detail = payload.detail;
    if (payload.details !== undefined) item.details = payload.details;
    if (payload.data !== undefined) item.data = payload.data;
  }

  #item(itemId: string, event: RuntimeEvent): ItemView {
    let item = this.#items.get(itemId);
    if (item === undefined) {
      item = {
        itemId,
        itemType: "itemType" in event.payload ? event.payload.itemType : "unknown",
        status: "inProgress",
        text: "",
        output: "",
      } as ItemView;
      if (event.turnId !== undefined) {
        item.turnId = event.turnId;
        this.#turn(event.turnId, event.createdAt)?.itemIds.push(itemId);
      }
      if (event.parentItemId !== undefined) item.parentItemId = event.parentItemId;
      this.#items.set(itemId, item);
      this.view.items.push(item);
    }
    return item;
  }

  #request(
    requestId: string | undefined,
    requestType: RequestView["requestType"],
    turnId: string | undefined,
  ): RequestView | undefined {
    if (requestId === undefined) return undefined;
    let request = this.#requests.get(requestId);
    if (request === undefined) {
      request = { requestId, requestType, status: "open", ...optional("turnId", turnId) };
      this.#requests.set(requestId, request);
      this.view.requests.push(request);
    }
    return request;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

/** The thread view of a whole stream. */
export function projectEvents(events: Iterable<RuntimeEvent>): ThreadView {
  const projector = new ThreadProjector();
  for (const event of events) projector.apply(event);
  return projector.view;
}

/** A count or a cost that can be added up: a finite number, never a string an odd writer stored (no "0" + "1"). */
function amount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
