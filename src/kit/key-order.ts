/**
 * Whether the object's enumerable keys are exactly `keys`, in that order: then its JSON, written member by member
 * in that order, is what `JSON.stringify` writes. Pure.
 */
export function hasKeysInOrder(record: object, keys: readonly string[]): boolean {
  let at = 0;
  for (const key in record) if (key !== keys[at++]) return false;
  return at === keys.length;
}
