import type { CanonicalItemType, CanonicalRequestType } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { ItemDetails, ItemLifecyclePayload } from "../../contracts/item-details.js";
import type { RuntimeEventPayloadByType, TokenUsage } from "../../contracts/payloads.js";
import { BoundedMap } from "../../kit/bounded-map.js";
import type { EventBuilder, EventContext, PayloadInput } from "../../kit/event-builder.js";
import { IdTable } from "../../kit/id-table.js";
import { mintId } from "../../kit/ids.js";
import { itemPayload } from "../../kit/item-payload.js";
import { KeyJoiner } from "../../kit/key-joiner.js";

/** What the mapper remembers about a native thread. */
export interface ThreadState {
  model?: string | undefined;
  effort?: string | undefined;
  /** The turn the thread is running, for records (legacy approvals) that name no turn. */
  activeTurnKey?: string | undefined;
  /** The thread's event ids, built once while it is open (see HandlerContext.thread). */
  ids?: EventContext;
}

/**
 * Event ids built for an open turn or item, kept with what they were built from. Most records of a session are
 * deltas of one item: building the same context objects for each of them was most of the mapping time. A cached
 * context is never mutated (the builder copies its fields into each event), so events may share it.
 */
interface CachedIds {
  ids: EventContext;
  /** The enclosing (thread or turn) context they extend: reused only while that is the same object. */
  base: EventContext;
  parentItemId?: string | undefined;
}

export interface TurnState {
  threadKey: string;
  /** Sum of the `last` usage reported during the turn. */
  usage?: TokenUsage | undefined;
  cachedIds?: CachedIds;
}

export interface ItemState {
  itemType: CanonicalItemType;
  threadKey: string;
  turnKey: string | undefined;
  parentItemId: string | undefined;
  /** Whether output deltas were streamed; if not, completion emits the aggregated output as one delta. */
  streamedOutput?: boolean;
  /** The details of the item's last snapshot, for the events that carry none of their own (stdin, a cut turn). */
  details?: ItemDetails | undefined;
  cachedIds?: CachedIds;
}

export interface RequestState {
  method: string;
  requestType: CanonicalRequestType;
  isUserInput: boolean;
  threadKey: string | undefined;
  turnKey: string | undefined;
  /** The canonical turn the request was opened in (for a subagent's request, its spawner's turn). */
  turnId: string | undefined;
  itemId: string | undefined;
  nativeId: string;
}

/**
 * A thread that is not one of the session's own: a subagent's. Its turns are not the session's turns; they are the
 * work of a `subagent` task linked to the collab call that spawned it.
 */
export interface SubagentThread {
  /** The collab_agent_tool_call item that first named the thread (its spawner), once one has. */
  parentItemId?: string | undefined;
  /** The session's turn that spawner ran in: the turn the subagent's events belong to. */
  turnId?: string | undefined;
  /** The task the spawner gave it (the call's prompt). */
  description?: string | undefined;
  /** The subagent task running now (from the child's `active` status or turn start to its turn's end). */
  openTaskId?: string | undefined;
  /** How many tasks the thread ran so far: one per busy spell. */
  taskCount: number;
}

/** Our own outgoing request, kept until its response arrives. */
export interface OutgoingRequest {
  method: string;
  params: unknown;
}

/**
 * Correlation state of one app-server session: native thread/turn/item/request ids → canonical ids, what is open,
 * and which subagent thread belongs to which collab item. Every table is bounded.
 */
export class CodexAppServerState {
  readonly threads: IdTable<ThreadState>;
  readonly turns: IdTable<TurnState>;
  readonly items: IdTable<ItemState>;
  readonly requests: IdTable<RequestState>;
  readonly outgoing: BoundedMap<string, OutgoingRequest>;
  /** Native request id → how many requests used it so far (ids can repeat across connections). */
  readonly requestGenerations: BoundedMap<string, number>;
  /** Native request key of a request that is still open, by native JSON-RPC id. */
  readonly openRequestByNativeId: BoundedMap<string, string>;
  /** Turns and items that have ended, so late records do not reopen them. */
  readonly endedTurns: BoundedMap<string, true>;
  readonly endedItems: BoundedMap<string, true>;
  /**
   * Turns listed in a thread/resume or thread/fork reply: history of an earlier process, never live in this one.
   * Codex replays records of them (a crash-cut turn's token usage) that must not open a turn nothing will end.
   */
  readonly historyTurns: BoundedMap<string, true>;
  /** The session's own threads (native ids): those a thread/start, resume or fork reply opened. */
  readonly ownThreads: BoundedMap<string, true>;
  /** Every other thread seen (native id): a subagent's, with the collab item that spawned it once named. */
  readonly subagentThreads: BoundedMap<string, SubagentThread>;
  readonly tasks: BoundedMap<string, true>;
  sessionStarted = false;

  constructor(
    readonly sessionId: string,
    cap: number,
  ) {
    this.threads = new IdTable(sessionId, "thread", cap);
    this.turns = new IdTable(sessionId, "turn", cap);
    this.items = new IdTable(sessionId, "item", cap);
    this.requests = new IdTable(sessionId, "request", cap);
    this.outgoing = new BoundedMap(cap);
    this.requestGenerations = new BoundedMap(cap);
    this.openRequestByNativeId = new BoundedMap(cap);
    this.endedTurns = new BoundedMap(cap);
    this.endedItems = new BoundedMap(cap);
    this.historyTurns = new BoundedMap(cap);
    this.ownThreads = new BoundedMap(cap);
    this.subagentThreads = new BoundedMap(cap);
    this.tasks = new BoundedMap(cap);
  }

  taskId(kind: string, nativeKey: string): string {
    return mintId(this.sessionId, "task", `${kind}\u0000${nativeKey}`);
  }

  /**
   * The subagent state of a thread that is not the session's own, else undefined. Before any own thread is known
   * (a transcript without our thread/start), the first thread seen is taken for the session's.
   */
  subagentThread(threadKey: string | undefined): SubagentThread | undefined {
    if (threadKey === undefined || threadKey.length === 0) return undefined;
    const known = this.subagentThreads.get(threadKey);
    if (known !== undefined) return known;
    if (this.ownThreads.has(threadKey)) return undefined;
    if (this.ownThreads.size === 0) {
      this.ownThreads.set(threadKey, true);
      return undefined;
    }
    const child: SubagentThread = { taskCount: 0 };
    this.subagentThreads.set(threadKey, child);
    return child;
  }
}

const ITEM_KEYS = new KeyJoiner("\u0000");

export function itemKey(threadKey: string | undefined, nativeItemId: string): string {
  return ITEM_KEYS.join(threadKey ?? "", nativeItemId);
}

/** The ids of records that name no thread. Shared, so never mutated. */
const NO_IDS: EventContext = Object.freeze({});

function threadIds(threadId: string, threadKey: string): EventContext {
  return { threadId, providerRefs: { providerThreadId: threadKey } };
}

function turnIds(threadContext: EventContext, turnId: string, turnKey: string): EventContext {
  return {
    ...threadContext,
    turnId,
    providerRefs: { ...threadContext.providerRefs, providerTurnId: turnKey },
  };
}

function itemIds(
  turnContext: EventContext,
  itemId: string,
  parentItemId: string | undefined,
  nativeItemId: string,
): EventContext {
  return {
    ...turnContext,
    itemId,
    parentItemId,
    providerRefs: { ...turnContext.providerRefs, providerItemId: nativeItemId },
  };
}

/** The opened item's ids, whether this record opened it, and its correlation state. */
export interface OpenedItem {
  ids: EventContext;
  isNew: boolean;
  state: ItemState;
}

/**
 * The context a handler works in: the builder, the record's raw, the state, and helpers that open threads and
 * turns on first sight so every event refers only to things already started.
 */
export class HandlerContext {
  readonly out: RuntimeEvent[] = [];

  constructor(
    readonly b: EventBuilder,
    readonly state: CodexAppServerState,
    readonly raw: RuntimeEventRaw,
  ) {}

  emit<T extends RuntimeEventType>(
    type: T,
    payload: PayloadInput<RuntimeEventPayloadByType[T]>,
    context: EventContext = NO_IDS,
  ): void {
    this.out.push(this.b.emit(type, payload, context, this.raw) as RuntimeEvent);
  }

  /** Ids of a thread, emitting `thread.started` the first time it is seen. */
  thread(threadKey: string | undefined): EventContext {
    if (threadKey === undefined || threadKey.length === 0) return NO_IDS;
    const open = this.state.threads.get(threadKey);
    if (open !== undefined) {
      open.state.ids ??= threadIds(open.id, threadKey);
      return open.state.ids;
    }
    const { entry } = this.state.threads.open(threadKey, {});
    const context = threadIds(entry.id, threadKey);
    entry.state.ids = context;
    this.emit("thread.started", { providerThreadId: threadKey }, context);
    return context;
  }

  /**
   * Ids of a turn, emitting `turn.started` the first time it is seen (unless it already ended: then the ids are
   * returned without reopening it). A history turn (see CodexAppServerState.historyTurns) is named only in the
   * provider refs of the thread's context.
   */
  turn(threadKey: string | undefined, turnKey: string | undefined): EventContext {
    const subagent = this.state.subagentThread(threadKey);
    if (subagent !== undefined) return this.subagentContext(threadKey, turnKey, subagent);
    const threadContext = this.thread(threadKey);
    if (turnKey === undefined || turnKey.length === 0) return threadContext;
    if (this.state.historyTurns.has(turnKey))
      return { ...threadContext, providerRefs: { ...threadContext.providerRefs, providerTurnId: turnKey } };
    const turns = this.state.turns;
    const open = turns.get(turnKey);
    if (open !== undefined) {
      const cached = open.state.cachedIds;
      if (cached?.base === threadContext) return cached.ids;
      const context = turnIds(threadContext, open.id, turnKey);
      open.state.cachedIds = { ids: context, base: threadContext };
      return context;
    }
    if (this.state.endedTurns.has(turnKey)) return turnIds(threadContext, turns.idOf(turnKey), turnKey);
    const { entry } = turns.open(turnKey, { threadKey: threadKey ?? "" });
    const context = turnIds(threadContext, entry.id, turnKey);
    entry.state.cachedIds = { ids: context, base: threadContext };
    const thread = threadKey === undefined ? undefined : this.state.threads.get(threadKey)?.state;
    if (thread !== undefined) thread.activeTurnKey = turnKey;
    this.emit("turn.started", { model: thread?.model, effort: thread?.effort }, context);
    return context;
  }

  /**
   * Ids of a subagent thread's record: its own thread, the session's turn its spawner ran in (a subagent's turns
   * are not the session's: none is opened), and the spawner as `parentItemId`. Its native turn stays in the refs.
   */
  subagentContext(threadKey: string | undefined, turnKey: string | undefined, subagent: SubagentThread) {
    const threadContext = this.thread(threadKey);
    const context: EventContext = { ...threadContext };
    if (subagent.turnId !== undefined) context.turnId = subagent.turnId;
    if (subagent.parentItemId !== undefined) context.parentItemId = subagent.parentItemId;
    if (turnKey !== undefined && turnKey.length > 0)
      context.providerRefs = { ...threadContext.providerRefs, providerTurnId: turnKey };
    return context;
  }

  /** The collab item a subagent thread's events belong to. */
  parentOf(threadKey: string | undefined): string | undefined {
    return threadKey === undefined ? undefined : this.state.subagentThreads.get(threadKey)?.parentItemId;
  }

  /**
   * Ids of an item, emitting `item.started` (with `started.payload`, or a bare one) the first time it is seen.
   * Returns undefined when the item already completed: late records must not reopen it.
   */
  item(
    threadKey: string | undefined,
    turnKey: string | undefined,
    nativeItemId: string,
    itemType: CanonicalItemType,
    started?: { parentItemId?: string | undefined; payload?: ItemLifecyclePayload },
  ): OpenedItem | undefined {
    const key = itemKey(threadKey, nativeItemId);
    if (this.state.endedItems.has(key)) return undefined;
    if (turnKey !== undefined && this.state.historyTurns.has(turnKey)) return undefined;
    const turnContext = this.turn(threadKey, turnKey);
    const existing = this.state.items.get(key);
    const parentItemId = existing?.state.parentItemId ?? started?.parentItemId ?? this.parentOf(threadKey);
    if (existing !== undefined) {
      const cached = existing.state.cachedIds;
      if (cached?.base === turnContext && cached.parentItemId === parentItemId)
        return { ids: cached.ids, isNew: false, state: existing.state };
      const ids = itemIds(turnContext, existing.id, parentItemId, nativeItemId);
      existing.state.cachedIds = { ids, base: turnContext, parentItemId };
      return { ids, isNew: false, state: existing.state };
    }
    const state: ItemState = { itemType, threadKey: threadKey ?? "", turnKey, parentItemId };
    const { entry } = this.state.items.open(key, state);
    const ids = itemIds(turnContext, entry.id, parentItemId, nativeItemId);
    state.cachedIds = { ids, base: turnContext, parentItemId };
    this.emit("item.started", started?.payload ?? { itemType, status: "inProgress" }, ids);
    return { ids, isNew: true, state };
  }

  /** Closes every item of a turn still open (a retried model call leaves its partial message open). */
  endItemsOfTurn(turnKey: string, detail: string): void {
    for (const entry of this.state.items.openEntries()) {
      if (entry.state.turnKey !== turnKey) continue;
      this.emit(
        "item.completed",
        itemPayload(entry.state.itemType, { status: "failed", detail, details: entry.state.details }),
        {
          threadId: this.state.threads.idOf(entry.state.threadKey),
          // A subagent's item belongs to its spawner's turn, not to the native turn of the child thread.
          turnId:
            entry.state.cachedIds === undefined
              ? this.state.turns.idOf(turnKey)
              : entry.state.cachedIds.ids.turnId,
          itemId: entry.id,
          parentItemId: entry.state.parentItemId,
        },
      );
      this.state.items.close(entry.nativeKey);
      this.state.endedItems.set(entry.nativeKey, true);
    }
  }

  /** Marks an item ended; its later records are dropped or warned about. */
  endItem(threadKey: string | undefined, nativeItemId: string): void {
    const key = itemKey(threadKey, nativeItemId);
    this.state.items.close(key);
    this.state.endedItems.set(key, true);
  }

  warn(message: string, detail: unknown, context: EventContext = NO_IDS): void {
    this.emit("runtime.warning", { message, detail }, context);
  }
}
