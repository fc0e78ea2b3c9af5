import type { CanonicalItemType } from "../contracts/enums.js";
import type { ItemFields, ItemLifecyclePayload } from "../contracts/item-details.js";

/**
 * An item payload from a type and fields learned apart. The type system cannot tie a runtime item type to its
 * details schema; the schema tests do (every mapper's output is validated against the discriminated union).
 */
export function itemPayload(itemType: CanonicalItemType, fields: ItemFields): ItemLifecyclePayload {
  return { itemType, ...fields } as ItemLifecyclePayload;
}
