import type { CanonicalItemType, CanonicalRequestType, ContentStreamKind } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { RuntimeEventPayloadByType } from "../../contracts/payloads.js";
import { BoundedMap } from "../../kit/bounded-map.js";
import type { EventBuilder, EventContext, PayloadInput } from "../../kit/event-builder.js";
import { IdTable } from "../../kit/id-table.js";
import { mintId } from "../../kit/ids.js";
import { providerEvent } from "../../kit/warnings.js";
import {
  type CoreItemFields,
  type ItemState,
  itemEventPayload,
  type RequestState,
  type TurnState,
} from "./core-state.js";

export type { CoreItemFields, TurnState } from "./core-state.js";

type TurnCompleted = RuntimeEventPayloadByType["turn.completed"];

/**
 * The state shared by the EventMsg and rollout mappers: thread, current turn, open items and requests, keyed by
 * native ids (scoped to their turn). All emits go through here so ids, raw and lifecycle stay consistent.
 */
export class EventMsgCore {
  readonly items: IdTable<ItemState>;
  readonly requests: IdTable<RequestState>;
  readonly tasks: IdTable<undefined>;
  readonly #completed: BoundedMap<string, true>;
  readonly #threads: BoundedMap<string, string>;
  readonly #turnKeys: BoundedMap<string, true>;
  thread: { id: string; nativeId: string } | undefined;
  turn: TurnState | undefined;
  /** Model and effort of the latest turn context, for synthesized turns. */
  model: string | undefined;
  effort: string | undefined;
  #turnSequence = 0;
  /** Rollout state: session.started emitted, the last turn context (to skip unchanged repeats). */
  sessionStarted = false;
  lastTurnContext: string | undefined;
  /** The latest record, for events the end of input derives. */
  lastRaw: RuntimeEventRaw | undefined;

  constructor(
    readonly b: EventBuilder,
    readonly sessionId: string,
    cap: number,
  ) {
    this.items = new IdTable(sessionId, "item", cap);
    this.requests = new IdTable(sessionId, "request", cap);
    this.tasks = new IdTable(sessionId, "task", cap);
    this.#completed = new BoundedMap(cap);
    this.#threads = new BoundedMap(cap);
    this.#turnKeys = new BoundedMap(cap);
  }

  /** The envelope context of an event: current thread, the given turn (or the open one), raw. */
  ctx(raw: RuntimeEventRaw, extra?: EventContext): EventContext {
    // Field by field rather than `{threadId, turnId, ...extra, raw}`: a spread of contexts of varying shapes was
    // a large share of the mapping time. A key present in `extra` wins even when undefined, as in the spread.
    if (extra === undefined) return { threadId: this.thread?.id, turnId: this.turn?.id, raw };
    return {
      threadId: "threadId" in extra ? extra.threadId : this.thread?.id,
      turnId: "turnId" in extra ? extra.turnId : this.turn?.id,
      itemId: extra.itemId,
      requestId: extra.requestId,
      parentItemId: extra.parentItemId,
      providerRefs: extra.providerRefs,
      raw,
    };
  }

  emit<T extends keyof RuntimeEventPayloadByType>(
    type: T,
    payload: PayloadInput<RuntimeEventPayloadByType[T]>,
    raw: RuntimeEventRaw,
    extra?: EventContext,
  ): RuntimeEvent {
    return this.b.emit(type, payload, this.ctx(raw, extra)) as RuntimeEvent;
  }

  note(name: string, raw: RuntimeEventRaw, summary?: string): RuntimeEvent {
    return providerEvent(this.b, name, raw, summary, this.ctx(raw));
  }

  // ── thread ──────────────────────────────────────────────────────────────────────────────────────────────

  /** Emits `thread.started` the first time a native thread id is seen; makes it the current thread. */
  ensureThread(nativeThreadId: string | undefined, raw: RuntimeEventRaw): RuntimeEvent[] {
    if (nativeThreadId === undefined) return [];
    if (this.thread?.nativeId === nativeThreadId) return [];
    const known = this.#threads.get(nativeThreadId);
    const threadId = known ?? mintId(this.sessionId, "thread", nativeThreadId);
    this.thread = { id: threadId, nativeId: nativeThreadId };
    if (known !== undefined) return [];
    this.#threads.set(nativeThreadId, threadId);
    return [
      this.b.emit(
        "thread.started",
        { providerThreadId: nativeThreadId },
        { threadId, providerRefs: { providerThreadId: nativeThreadId }, raw },
      ),
    ];
  }

  // ── turns ───────────────────────────────────────────────────────────────────────────────────────────────

  /** `synthesized`: no native record started this turn (older formats never write turn starts). */
  openTurn(nativeTurnId: string | undefined, raw: RuntimeEventRaw, synthesized = false): RuntimeEvent[] {
    const events: RuntimeEvent[] = [];
    if (this.turn !== undefined) {
      events.push(...this.closeTurn({ state: "cancelled", stopReason: "superseded by a new turn" }, raw));
    }
    this.#turnSequence++;
    let key = nativeTurnId ?? `${synthesized ? "synthesized-turn" : "turn"}-${this.#turnSequence}`;
    // A native turn id seen twice (a replayed or resumed turn) still gets a turn id of its own.
    if (this.#turnKeys.has(key)) key = `${key}#${this.#turnSequence}`;
    this.#turnKeys.set(key, true);
    const id = mintId(this.sessionId, "turn", key);
    this.turn = {
      key,
      id,
      nativeTurnId,
      synthesized,
      errorMessage: undefined,
      modernAgent: false,
      modernReasoning: false,
      modernUser: false,
      assistantKey: undefined,
      reasoningKey: undefined,
      counter: 0,
      hadUser: false,
      answered: false,
    };
    const payload: RuntimeEventPayloadByType["turn.started"] = {};
    if (this.model !== undefined) payload.model = this.model;
    if (this.effort !== undefined) payload.effort = this.effort;
    events.push(
      this.emit("turn.started", payload, raw, {
        turnId: id,
        providerRefs: { providerTurnId: nativeTurnId },
      }),
    );
    return events;
  }

  /** The open turn, or a synthesized one (older rollouts and streams have no `task_started`). */
  ensureTurn(raw: RuntimeEventRaw, events: RuntimeEvent[]): TurnState {
    if (this.turn === undefined) events.push(...this.openTurn(undefined, raw, true));
    return this.turn as TurnState;
  }

  /** Resolves the turn's pending requests, completes its open items, then `turn.completed` — all with `raw`. */
  closeTurn(completed: TurnCompleted, raw: RuntimeEventRaw): RuntimeEvent[] {
    const turn = this.turn;
    if (turn === undefined) return [];
    const events: RuntimeEvent[] = [];
    for (const entry of this.requests.openEntries()) {
      if (entry.state.turnId !== turn.id) continue;
      events.push(
        ...this.resolveRequest(entry.nativeKey, raw, {
          resolution: { inferredFrom: "turn end", note: "the stream does not show the answer" },
        }),
      );
    }
    for (const entry of this.items.openEntries()) {
      if (entry.state.turnId !== turn.id) continue;
      events.push(
        ...this.completeItem(entry.nativeKey, entry.state.itemType, raw, { detail: "closed at turn end" }),
      );
    }
    const payload = { ...completed };
    if (payload.state === "completed" && turn.errorMessage !== undefined) {
      payload.state = "failed";
      payload.errorMessage = turn.errorMessage;
    }
    events.push(
      this.emit("turn.completed", payload, raw, {
        turnId: turn.id,
        providerRefs: { providerTurnId: turn.nativeTurnId },
      }),
    );
    this.turn = undefined;
    return events;
  }

  /**
   * End of input. A synthesized turn (the format never writes turn ends) ends here: completed when the assistant
   * answered, else interrupted. A native turn without `task_complete` stays open: the replay is faithful to a
   * session that was cut off.
   */
  finishReplay(): RuntimeEvent[] {
    const turn = this.turn;
    if (turn === undefined || !turn.synthesized || this.lastRaw === undefined) return [];
    const state = turn.answered ? "completed" : "interrupted";
    return this.closeTurn({ state, stopReason: "end of input" }, this.lastRaw);
  }

  // ── items ───────────────────────────────────────────────────────────────────────────────────────────────

  /** Item keys are scoped to their turn: call ids repeat across turns in some streams. */
  itemKey(nativeKey: string): string {
    return `${this.turn?.key ?? "-"}/${nativeKey}`;
  }

  /** A fresh key for an item the stream gives no id (legacy deltas, user messages). */
  freshKey(turn: TurnState, what: string): string {
    turn.counter++;
    return `${turn.key}/${what}#${turn.counter}`;
  }

  isCompleted(key: string): boolean {
    return this.#completed.has(key);
  }

  isOpen(key: string): boolean {
    return this.items.isOpen(key);
  }

  itemIdOf(key: string): string {
    return this.items.idOf(key);
  }

  /** `item.started`, or `item.updated` when the key is already open (another record announced it first). */
  startItem(
    key: string,
    itemType: CanonicalItemType,
    raw: RuntimeEventRaw,
    fields: CoreItemFields = {},
    nativeId?: string,
    parentItemId?: string,
  ): RuntimeEvent[] {
    if (this.#completed.has(key))
      return [this.note("duplicate-item-start", raw, "the item already completed")];
    const events: RuntimeEvent[] = [];
    const turn = this.ensureTurn(raw, events);
    const { entry, isNew } = this.items.open(key, {
      itemType,
      turnId: turn.id,
      nativeId,
      sawDelta: false,
      refs: nativeId === undefined ? undefined : { providerItemId: nativeId },
      details: undefined,
      shown: undefined,
      shownTitle: undefined,
    });
    const type = isNew ? "item.started" : "item.updated";
    const status = isNew ? "inProgress" : fields.status;
    events.push(
      this.emit(type, itemEventPayload(entry.state, itemType, fields, status), raw, {
        turnId: entry.state.turnId,
        itemId: entry.id,
        parentItemId,
        providerRefs: { providerItemId: nativeId, providerTurnId: turn.nativeTurnId },
      }),
    );
    return events;
  }

  updateItem(
    key: string,
    itemType: CanonicalItemType,
    raw: RuntimeEventRaw,
    fields: CoreItemFields,
  ): RuntimeEvent[] {
    const open = this.items.get(key);
    if (open === undefined) return this.startItem(key, itemType, raw, fields);
    return [
      this.emit("item.updated", itemEventPayload(open.state, itemType, fields, fields.status), raw, {
        turnId: open.state.turnId,
        itemId: open.id,
        providerRefs: open.state.refs,
      }),
    ];
  }

  /** A content delta on an item, opening it if needed; never after the item completed. */
  delta(
    key: string,
    itemType: CanonicalItemType,
    streamKind: ContentStreamKind,
    text: string,
    raw: RuntimeEventRaw,
    index: { contentIndex?: number; summaryIndex?: number } = {},
    nativeId?: string,
  ): RuntimeEvent[] {
    if (this.#completed.has(key)) return [this.note("late-delta", raw, "delta after the item completed")];
    const events = this.items.isOpen(key) ? [] : this.startItem(key, itemType, raw, {}, nativeId);
    const open = this.items.get(key);
    if (open === undefined) return events;
    open.state.sawDelta = true;
    events.push(
      this.emit("content.delta", { streamKind, delta: text, ...index }, raw, {
        turnId: open.state.turnId,
        itemId: open.id,
        providerRefs: open.state.refs,
      }),
    );
    return events;
  }

  /**
   * `item.completed`, starting the item first if nothing announced it. `fullText` is the item's whole content:
   * it becomes one delta when no delta streamed, so the text is in the stream either way.
   */
  completeItem(
    key: string,
    itemType: CanonicalItemType,
    raw: RuntimeEventRaw,
    fields: CoreItemFields = {},
    fullText?: { streamKind: ContentStreamKind; text: string },
    nativeId?: string,
    parentItemId?: string,
  ): RuntimeEvent[] {
    if (this.#completed.has(key)) return [this.note("duplicate-item-end", raw, "the item already completed")];
    // An item nothing announced starts with what its one record says, so the start already renders.
    const events = this.items.isOpen(key)
      ? []
      : this.startItem(
          key,
          itemType,
          raw,
          { title: fields.title, details: fields.details },
          nativeId,
          parentItemId,
        );
    const open = this.items.get(key);
    if (open === undefined) return events;
    if (fullText !== undefined && fullText.text.length > 0 && !open.state.sawDelta) {
      events.push(...this.delta(key, itemType, fullText.streamKind, fullText.text, raw));
    }
    this.items.close(key);
    this.#completed.set(key, true);
    events.push(
      this.emit("item.completed", itemEventPayload(open.state, itemType, fields, fields.status), raw, {
        turnId: open.state.turnId,
        itemId: open.id,
        parentItemId,
        providerRefs: open.state.refs ?? { providerItemId: nativeId },
      }),
    );
    return events;
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────────────

  openRequest(
    key: string,
    nativeId: string,
    requestType: CanonicalRequestType,
    raw: RuntimeEventRaw,
    payload: Omit<RuntimeEventPayloadByType["request.opened"], "requestType">,
    questions?: unknown,
  ): RuntimeEvent[] {
    const events: RuntimeEvent[] = [];
    const turn = this.ensureTurn(raw, events);
    const isUserInput = questions !== undefined;
    const { entry, isNew } = this.requests.open(key, { requestType, turnId: turn.id, nativeId, isUserInput });
    if (!isNew) return [...events, this.note("duplicate-request", raw, "the request is already open")];
    const ids = { turnId: turn.id, requestId: entry.id, providerRefs: { providerRequestId: nativeId } };
    events.push(this.emit("request.opened", { requestType, ...payload }, raw, ids));
    if (isUserInput) events.push(this.emit("user-input.requested", { questions }, raw, ids));
    return events;
  }

  resolveRequest(
    key: string,
    raw: RuntimeEventRaw,
    payload: Omit<RuntimeEventPayloadByType["request.resolved"], "requestType">,
    answers?: unknown,
  ): RuntimeEvent[] {
    const open = this.requests.close(key);
    if (open === undefined) return [];
    const ids = {
      turnId: open.state.turnId,
      requestId: open.id,
      providerRefs: { providerRequestId: open.state.nativeId },
    };
    const events: RuntimeEvent[] = [];
    if (open.state.isUserInput) {
      events.push(this.emit("user-input.resolved", { answers: answers ?? null }, raw, ids));
    }
    events.push(this.emit("request.resolved", { requestType: open.state.requestType, ...payload }, raw, ids));
    return events;
  }
}
