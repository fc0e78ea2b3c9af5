import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { PlanStep, TokenUsage } from "../../contracts/payloads.js";
import { BaseMapper } from "../../kit/base-mapper.js";
import { BoundedMap } from "../../kit/bounded-map.js";
import type { EventContext } from "../../kit/event-builder.js";
import { idKey, isObject, type JsonObject, str } from "../../kit/guards.js";
import { IdTable } from "../../kit/id-table.js";
import { idScopeOf, mintId } from "../../kit/ids.js";
import { itemPayload } from "../../kit/item-payload.js";
import type { MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning, unknownKindWarning } from "../../kit/warnings.js";
import { CODEX_SDK_ITEM_KINDS, type Described, type ItemKind, itemStatus } from "./item-kinds.js";
import { inputText } from "./records.js";

/** What the mapper remembers of an open native item between its snapshots. */
interface OpenItemState {
  kind: ItemKind | undefined;
  turnId: string | undefined;
  nativeId: string;
  /** The stream text already emitted as deltas (a snapshot's growth beyond it becomes the next delta). */
  streamed: string;
  /** The plan last announced as `turn.plan.updated`, to skip unchanged snapshots. */
  planKey: string | undefined;
  /** The item's refs, made when it opens: its snapshots' events share them. */
  refs: { providerThreadId: string | undefined; providerItemId: string };
  /** The last snapshot's description: an item the turn's end closes keeps its title and details. */
  described: Described | undefined;
}

type Phase = "started" | "updated" | "completed";

/**
 * What the Codex SDK mapper knows of its thread, turn and open items, and the steps its record handlers take on
 * it. One exec process per turn: every run repeats `thread.started` and restarts native item ids at `item_0`, so
 * items are keyed by run (`thread.started` count) and native id. The dispatch is in `mapper.ts`.
 */
export abstract class CodexSdkThreadState extends BaseMapper {
  threadId: string | undefined;
  providerThreadId: string | undefined;
  turnId: string | undefined;
  /** The native thread total of the previous `turn.completed` (exec reports thread-cumulative usage). */
  lastUsage: TokenUsage | undefined;
  #run = 0;
  #turnCount = 0;
  #pendingInput: { text: string; raw: RuntimeEventRaw } | undefined;
  readonly #items: IdTable<OpenItemState>;
  readonly #idScope: string;
  readonly #completed: BoundedMap<string, true>;

  constructor(options: MapperOptions) {
    super("codex-sdk", "codex", options);
    this.#idScope = idScopeOf(options);
    this.#items = new IdTable(this.#idScope, "item", this.cap);
    this.#completed = new BoundedMap(this.cap);
  }

  /** Ids of the current thread and turn, plus the native thread id. */
  context(extra: EventContext = {}): EventContext {
    return {
      threadId: this.threadId,
      turnId: this.turnId,
      ...extra,
      providerRefs: { providerThreadId: this.providerThreadId, ...extra.providerRefs },
    };
  }

  /**
   * `context({ raw })` without its spreads (most events of a record use it). The refs object is shared by those
   * events: the builder copies it into each event and nothing mutates it.
   */
  contextWithRaw(rawRecord: RuntimeEventRaw): EventContext {
    return {
      threadId: this.threadId,
      turnId: this.turnId,
      raw: rawRecord,
      providerRefs: this.#threadRefs,
    };
  }

  /** `{ providerThreadId }`, made when the thread is set: events share it and nothing mutates it. */
  #threadRefs: { providerThreadId: string } | undefined;

  /** A new exec run has begun (its `thread.started`): native item ids start over. */
  beginRun(): void {
    this.#run++;
  }

  setThread(providerThreadId: string): void {
    this.providerThreadId = providerThreadId;
    this.#threadRefs = { providerThreadId };
    this.threadId = mintId(this.#idScope, "thread", providerThreadId);
  }

  rememberInput(input: unknown, rawRecord: RuntimeEventRaw): void {
    const text = inputText(input);
    this.#pendingInput = text === undefined ? undefined : { text, raw: rawRecord };
  }

  /** Opens a turn; the prompt the host sent for it becomes its `user_message` item. */
  startTurn(rawRecord: RuntimeEventRaw): RuntimeEvent[] {
    this.#turnCount++;
    this.turnId = mintId(this.#idScope, "turn", `turn-${this.#turnCount}`);
    const events: RuntimeEvent[] = [this.builder.emit("turn.started", {}, this.contextWithRaw(rawRecord))];
    const input = this.#pendingInput;
    this.#pendingInput = undefined;
    if (input !== undefined) {
      const ids = this.context({
        itemId: mintId(this.#idScope, "item", `input-${this.#turnCount}`),
        raw: input.raw,
      });
      const data = { text: input.text };
      const details = { text: input.text };
      events.push(
        this.builder.emit(
          "item.started",
          { itemType: "user_message", status: "inProgress", details, data },
          ids,
        ),
      );
      events.push(
        this.builder.emit(
          "item.completed",
          { itemType: "user_message", status: "completed", details, data },
          ids,
        ),
      );
    }
    return events;
  }

  /**
   * Ends the open turn: its open items end as failed (interrupted/failed turn) and `turn.completed` follows.
   * Returns nothing when no turn is open.
   */
  endTurn(
    payload: Extract<RuntimeEvent, { type: "turn.completed" }>["payload"],
    rawRecord: RuntimeEventRaw,
  ): RuntimeEvent[] {
    const turnId = this.turnId;
    if (turnId === undefined) return [];
    const events: RuntimeEvent[] = [];
    if (payload.state !== "completed") {
      for (const entry of this.#items.openEntries()) {
        if (entry.state.turnId !== turnId) continue;
        this.#items.close(entry.nativeKey);
        this.#completed.set(entry.nativeKey, true);
        const described = entry.state.described;
        events.push(
          this.builder.emit(
            "item.completed",
            itemPayload(entry.state.kind?.itemType ?? "unknown", {
              status: "failed",
              ...(described?.title === undefined ? {} : { title: described.title }),
              detail: `turn ${payload.state}`,
              ...(described?.details === undefined ? {} : { details: described.details }),
            }),
            this.context({
              itemId: entry.id,
              raw: rawRecord,
              providerRefs: { providerItemId: entry.state.nativeId },
            }),
          ),
        );
      }
    }
    events.push(this.builder.emit("turn.completed", payload, this.contextWithRaw(rawRecord)));
    this.turnId = undefined;
    return events;
  }

  /** One snapshot of a native item (item.started / item.updated / item.completed). */
  itemSnapshot(phase: Phase, msg: JsonObject, rawRecord: RuntimeEventRaw): RuntimeEvent[] {
    const item = msg.item;
    if (!isObject(item))
      return [malformedRecordWarning(this.builder, `item.${phase}`, "no `item` object", rawRecord)];
    const nativeId = idKey(item.id);
    if (nativeId === undefined)
      return [malformedRecordWarning(this.builder, `item.${phase}`, "item has no `id`", rawRecord)];
    const itemTypeName = str(item.type) ?? "(none)";
    const kind = Object.hasOwn(CODEX_SDK_ITEM_KINDS, itemTypeName)
      ? CODEX_SDK_ITEM_KINDS[itemTypeName]
      : undefined;
    const key = `${this.#run}:${nativeId}`;
    const events: RuntimeEvent[] = [];
    if (kind === undefined) {
      events.push(
        unknownKindWarning(this.builder, "Codex SDK item type", itemTypeName, rawRecord, this.context()),
      );
    }
    if (this.#completed.has(key)) {
      events.push(
        malformedRecordWarning(
          this.builder,
          `item.${phase}`,
          `item ${nativeId} already completed`,
          rawRecord,
        ),
      );
      return events;
    }

    const opened = this.#openItem(key, kind, nativeId);
    const state = opened.entry.state;
    state.kind = kind ?? state.kind;
    const ids = {
      threadId: this.threadId,
      turnId: state.turnId,
      itemId: opened.entry.id,
      providerRefs: state.refs,
      raw: rawRecord,
    };
    const itemType = state.kind?.itemType ?? "unknown";
    const described: Described = state.kind === undefined ? { data: item } : state.kind.describe(item);
    state.described = described;
    if (opened.isNew) {
      events.push(
        this.builder.emit("item.started", itemPayload(itemType, { status: "inProgress", ...described }), ids),
      );
    }
    const growth = streamGrowth(state, item);
    if (growth.delta.length > 0 && state.kind?.stream !== undefined) {
      events.push(
        this.builder.emit("content.delta", { streamKind: state.kind.stream.kind, delta: growth.delta }, ids),
      );
    }
    const plan = state.kind?.plan?.(item);
    if (plan !== undefined) {
      const planKey = JSON.stringify(plan);
      if (planKey !== state.planKey) {
        state.planKey = planKey;
        events.push(this.builder.emit("turn.plan.updated", { plan: plan as PlanStep[] }, ids));
      }
    }
    const status = itemStatus(item, phase === "completed");
    if (phase === "completed") {
      this.#items.close(key);
      this.#completed.set(key, true);
      events.push(this.builder.emit("item.completed", itemPayload(itemType, { status, ...described }), ids));
    } else if (!opened.isNew || growth.replaced) {
      const detail = growth.replaced
        ? { detail: "text replaced (not an extension of the previous snapshot)" }
        : {};
      events.push(
        this.builder.emit("item.updated", itemPayload(itemType, { status, ...described, ...detail }), ids),
      );
    }
    return events;
  }

  /** The open item of `key`, opened now if it is not (its state is only allocated then). */
  #openItem(
    key: string,
    kind: ItemKind | undefined,
    nativeId: string,
  ): { entry: { id: string; state: OpenItemState }; isNew: boolean } {
    const entry = this.#items.get(key);
    if (entry !== undefined) return { entry, isNew: false };
    return this.#items.open(key, {
      kind,
      turnId: this.turnId,
      nativeId,
      streamed: "",
      planKey: undefined,
      described: undefined,
      refs: { providerThreadId: this.providerThreadId, providerItemId: nativeId },
    });
  }
}

/**
 * exec has no text deltas: the new text of a snapshot beyond what was already streamed is the delta. A text
 * that does not extend the streamed one (a rewrite) gives no delta; the item's `data` carries the new text.
 */
function streamGrowth(state: OpenItemState, item: JsonObject): { delta: string; replaced: boolean } {
  const text = state.kind?.stream?.textOf(item);
  if (text === undefined || text === state.streamed) return { delta: "", replaced: false };
  if (text.startsWith(state.streamed)) {
    const delta = text.slice(state.streamed.length);
    state.streamed = text;
    return { delta, replaced: false };
  }
  state.streamed = text;
  return { delta: "", replaced: true };
}
