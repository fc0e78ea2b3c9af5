import type { CanonicalItemType, CanonicalRequestType } from "../../contracts/enums.js";
import type { ItemDetails, ItemFields, ItemLifecyclePayload } from "../../contracts/item-details.js";
import { itemPayload } from "../../kit/item-payload.js";
import { type DetailsPatch, hasField, titleFromDetails, usableDetails } from "./details.js";

/** One turn as the EventMsg stream shows it; `synthesized` when the stream had no `task_started` for it. */
export interface TurnState {
  key: string;
  id: string;
  nativeTurnId: string | undefined;
  synthesized: boolean;
  errorMessage: string | undefined;
  /** The turn carries item-based events (item_*, *_content_delta), so the legacy copies are duplicates. */
  modernAgent: boolean;
  modernReasoning: boolean;
  modernUser: boolean;
  /** Open legacy (id-less) stream items of this turn. */
  assistantKey: string | undefined;
  reasoningKey: string | undefined;
  counter: number;
  /** Seen a user message / a completed assistant message: older rollouts start a new turn at the next prompt. */
  hadUser: boolean;
  answered: boolean;
}

export interface ItemState {
  itemType: CanonicalItemType;
  turnId: string;
  nativeId: string | undefined;
  sawDelta: boolean;
  /** `{providerItemId}` for the item's later events, made once: events share it (see EventBuilder). */
  refs: { providerItemId: string } | undefined;
  /** What the item's records said so far about its details; every item event carries the merged state. */
  details: DetailsPatch | undefined;
  /** The merged details once usable, and the title they imply: computed when the details change, not per event. */
  shown: ItemDetails | undefined;
  shownTitle: string | undefined;
}

/** Item fields as handlers give them: `details` is what this one record says (merged per item by the core). */
export interface CoreItemFields extends Omit<ItemFields, "details"> {
  details?: DetailsPatch | undefined;
}

export interface RequestState {
  requestType: CanonicalRequestType;
  turnId: string;
  nativeId: string;
  isUserInput: boolean;
}

/**
 * The payload of an item event: the record's details merged into the item's (dropped when the record names
 * another item type than the item has), shown once they hold what the schema requires; the title the details
 * imply (the unwrapped command, the paths) before the handler's.
 */
export function itemEventPayload(
  state: ItemState,
  itemType: CanonicalItemType,
  fields: CoreItemFields,
  status: ItemFields["status"],
): ItemLifecyclePayload {
  const patch = fields.details;
  if (patch !== undefined && patch !== state.details && itemType === state.itemType && hasField(patch)) {
    const merged = state.details === undefined ? patch : { ...state.details, ...patch };
    state.details = merged;
    state.shown = usableDetails(state.itemType, merged);
    state.shownTitle = state.shown === undefined ? undefined : titleFromDetails(state.itemType, state.shown);
  }
  const details = state.shown;
  const title = state.shownTitle ?? fields.title;
  const out: ItemFields = {};
  if (status !== undefined) out.status = status;
  if (title !== undefined) out.title = title;
  if (fields.detail !== undefined) out.detail = fields.detail;
  if (details !== undefined) out.details = details;
  if (fields.data !== undefined) out.data = fields.data;
  return itemPayload(state.itemType, out);
}
