import type { CanonicalItemType, CanonicalRequestType } from "../contracts/enums.js";
import type { RuntimeEvent, RuntimeEventOf } from "../contracts/events.js";
import type { ItemDetails } from "../contracts/item-details.js";
import { BoundedMap } from "./bounded-map.js";
import type { EventBuilder } from "./event-builder.js";

export interface TerminationReason {
  /** `crash`: the process died or its output was unusable. `stop`: the host stopped the session. */
  kind: "crash" | "stop";
  message: string;
}

interface OpenTurn {
  threadId: string | undefined;
}
interface OpenRequest {
  requestType: CanonicalRequestType;
  turnId: string | undefined;
  threadId: string | undefined;
  isUserInput: boolean;
}
interface OpenItem {
  itemType: CanonicalItemType;
  turnId: string | undefined;
  threadId: string | undefined;
  /** The details the item's last event gave (started or updated), for a completion that gives none. */
  details?: ItemDetails | undefined;
}

/**
 * Watches the canonical stream for what is open (turns, requests, items, the session) so that a crash or a stop
 * can close all of it: no turn without its completion, no request pending forever. Provider-independent.
 * It also keeps each open item's last known details: an `item.completed` without details (a native completion that
 * says only the status, as a refused file change does) gets them, so every completion carries the item's details.
 */
export class LifecycleTracker {
  readonly #turns: BoundedMap<string, OpenTurn>;
  readonly #requests: BoundedMap<string, OpenRequest>;
  readonly #items: BoundedMap<string, OpenItem>;
  #exited = false;

  constructor(cap = 10_000) {
    this.#turns = new BoundedMap(cap);
    this.#requests = new BoundedMap(cap);
    this.#items = new BoundedMap(cap);
  }

  get exited(): boolean {
    return this.#exited;
  }

  get openCounts(): { turns: number; requests: number; items: number } {
    return { turns: this.#turns.size, requests: this.#requests.size, items: this.#items.size };
  }

  observe(event: RuntimeEvent): void {
    switch (event.type) {
      case "turn.started":
        if (event.turnId) this.#turns.set(event.turnId, { threadId: event.threadId });
        break;
      case "turn.completed":
      case "turn.aborted":
        if (event.turnId) this.#turns.release(event.turnId);
        break;
      case "request.opened":
        if (event.requestId)
          this.#requests.set(event.requestId, {
            requestType: event.payload.requestType,
            turnId: event.turnId,
            threadId: event.threadId,
            isUserInput: this.#requests.get(event.requestId)?.isUserInput ?? false,
          });
        break;
      case "user-input.requested":
        if (event.requestId) {
          const open = this.#requests.get(event.requestId);
          this.#requests.set(event.requestId, {
            requestType: open?.requestType ?? "tool_user_input",
            turnId: event.turnId,
            threadId: event.threadId,
            isUserInput: true,
          });
        }
        break;
      case "request.resolved":
        if (event.requestId) this.#requests.release(event.requestId);
        break;
      case "item.started":
        if (event.itemId)
          this.#items.set(event.itemId, {
            itemType: event.payload.itemType,
            turnId: event.turnId,
            threadId: event.threadId,
            details: event.payload.details,
          });
        break;
      case "item.updated": {
        const open = event.itemId ? this.#items.get(event.itemId) : undefined;
        if (
          open !== undefined &&
          event.payload.details !== undefined &&
          open.itemType === event.payload.itemType
        )
          open.details = event.payload.details;
        break;
      }
      case "item.completed":
        if (event.itemId) {
          withLastDetails(event, this.#items.get(event.itemId));
          this.#items.release(event.itemId);
        }
        break;
      case "session.exited":
        this.#exited = true;
        break;
      default:
        break;
    }
  }

  /** Closing events, in order: error (crash), requests cancelled, items and turns ended, session exited. */
  terminate(builder: EventBuilder, reason: TerminationReason): RuntimeEvent[] {
    if (this.#exited) return [];
    const events: RuntimeEvent[] = [];
    const crashed = reason.kind === "crash";
    if (crashed) {
      events.push(builder.emit("runtime.error", { message: reason.message, class: "transport_error" }));
    }
    for (const [requestId, open] of this.#requests.entries()) {
      const ids = { requestId, turnId: open.turnId, threadId: open.threadId };
      if (open.isUserInput) events.push(builder.emit("user-input.resolved", { answers: {} }, ids));
      events.push(
        builder.emit(
          "request.resolved",
          { requestType: open.requestType, decision: "cancel", resolution: { reason: reason.message } },
          ids,
        ),
      );
    }
    for (const [itemId, open] of this.#items.entries()) {
      events.push(
        builder.emit(
          "item.completed",
          {
            itemType: open.itemType,
            status: "failed",
            detail: reason.message,
            ...(open.details === undefined ? {} : { details: open.details }),
          } as RuntimeEventOf<"item.completed">["payload"],
          { itemId, turnId: open.turnId, threadId: open.threadId },
        ),
      );
    }
    for (const [turnId, open] of this.#turns.entries()) {
      events.push(
        builder.emit(
          "turn.completed",
          crashed
            ? { state: "failed", errorMessage: reason.message }
            : { state: "interrupted", stopReason: "stopped" },
          { turnId, threadId: open.threadId },
        ),
      );
    }
    events.push(
      builder.emit("session.exited", {
        reason: reason.message,
        exitKind: crashed ? "error" : "graceful",
        recoverable: !crashed,
      }),
    );
    for (const event of events) this.observe(event);
    this.#requests.clear();
    this.#items.clear();
    this.#turns.clear();
    return events;
  }
}

/** A completion that gives no details takes the ones its item last had (of the same item type). */
function withLastDetails(event: RuntimeEventOf<"item.completed">, open: OpenItem | undefined): void {
  if (open === undefined || open.details === undefined || event.payload.details !== undefined) return;
  if (open.itemType !== event.payload.itemType) return;
  // A copy: a mapper may build several events on one payload object.
  (event as { payload: unknown }).payload = { ...event.payload, details: open.details };
}
