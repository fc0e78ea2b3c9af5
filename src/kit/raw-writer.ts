import { StringJsonCache } from "./string-json-cache.js";

/**
 * The JSON of a raw record as `raw()` builds it — `{source, payload, method?, messageType?}` in that order, tags as
 * strings — given its payload's JSON. Tags are mostly the previous record's, so their JSON is kept. Byte-identical
 * to `JSON.stringify` with the payload written as given; undefined for a record of any other shape. Pure.
 */
export class RawWriter {
  readonly #source = new StringJsonCache();
  readonly #method = new StringJsonCache();
  readonly #messageType = new StringJsonCache();
  /** The keys the record must have, in order (filled per record; no allocation). */
  readonly #keys: string[] = ["source", "payload"];

  json(record: object, payloadJson: string): string | undefined {
    if (Object.getPrototypeOf(record) !== Object.prototype) return undefined;
    const { source, method, messageType } = record as RawFields;
    if (typeof source !== "string") return undefined;
    const keys = this.#keys;
    let fields = 2;
    let out = `{"source":${this.#source.json(source)},"payload":${payloadJson}`;
    if (method !== undefined) {
      if (typeof method !== "string") return undefined;
      keys[fields++] = "method";
      out += `,"method":${this.#method.json(method)}`;
    }
    if (messageType !== undefined) {
      if (typeof messageType !== "string") return undefined;
      keys[fields++] = "messageType";
      out += `,"messageType":${this.#messageType.json(messageType)}`;
    }
    let at = 0;
    for (const key in record) if (key !== keys[at++]) return undefined;
    return at === fields ? `${out}}` : undefined;
  }
}

interface RawFields {
  source?: unknown;
  method?: unknown;
  messageType?: unknown;
}
