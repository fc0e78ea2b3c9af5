import { hasKeysInOrder } from "./key-order.js";
import { StringField } from "./string-field.js";

/**
 * The JSON of a raw record as `raw()` builds it — `{source, payload, method?, messageType?}` in that order, tags as
 * strings — given its payload's JSON. Tags are mostly the previous record's, so their JSON is kept. Byte-identical
 * to `JSON.stringify` with the payload written as given; undefined for a record of any other shape. Pure.
 */
export class RawWriter {
  readonly #source = new StringField("source");
  readonly #method = new StringField("method");
  readonly #messageType = new StringField("messageType");

  json(record: object, payloadJson: string): string | undefined {
    if (Object.getPrototypeOf(record) !== Object.prototype) return undefined;
    const { source, method, messageType } = record as RawFields;
    if (typeof source !== "string") return undefined;
    const methodMember = this.#method.optionalMember(method);
    const typeMember = this.#messageType.optionalMember(messageType);
    if (methodMember === undefined || typeMember === undefined) return undefined;
    const json = `{"source":${this.#source.json(source)},"payload":${payloadJson}${methodMember}${typeMember}`;
    const present = (method === undefined ? 0 : METHOD) | (messageType === undefined ? 0 : MESSAGE_TYPE);
    return hasKeysInOrder(record, KEY_ORDERS[present] as readonly string[]) ? `${json}}` : undefined;
  }
}

const METHOD = 1;
const MESSAGE_TYPE = 2;

/** For each set of optional tags present (the bits above), the record's keys in the order raw() writes them. */
const KEY_ORDERS: readonly (readonly string[])[] = Array.from({ length: 4 }, (_, present) => [
  "source",
  "payload",
  ...(present & METHOD ? ["method"] : []),
  ...(present & MESSAGE_TYPE ? ["messageType"] : []),
]);

interface RawFields {
  source?: unknown;
  method?: unknown;
  messageType?: unknown;
}
