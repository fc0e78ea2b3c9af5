import { MemberWriter } from "./member-writer.js";
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
  readonly #members = new MemberWriter(["source", "payload"]);

  json(record: object, payloadJson: string): string | undefined {
    if (Object.getPrototypeOf(record) !== Object.prototype) return undefined;
    const { source, method, messageType } = record as RawFields;
    if (typeof source !== "string") return undefined;
    const members = this.#members;
    members.begin(`{"source":${this.#source.json(source)},"payload":${payloadJson}`);
    if (!members.optional(this.#method, method) || !members.optional(this.#messageType, messageType))
      return undefined;
    return members.matchesKeysOf(record) ? `${members.json}}` : undefined;
  }
}

interface RawFields {
  source?: unknown;
  method?: unknown;
  messageType?: unknown;
}
