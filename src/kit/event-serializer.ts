/**
 * JSON lines for canonical events, byte-identical to `JSON.stringify(event)`, but each native record is
 * serialised once: the events one record produces share its `raw` object (or, for some mappers, raw objects that
 * share the record as `payload`), and re-serialising a large native payload per event was most of the cost of
 * `normalize`. Pure: no Node built-ins.
 *
 * EventBuilder writes `raw` as an event's last key, so an event's JSON is its JSON without `raw`, then
 * `,"raw":` and the raw's JSON. An event whose `raw` is not its last key, or that is not a plain object, takes the
 * plain `JSON.stringify` path, so the output never depends on how the event was built.
 */
export class EventSerializer {
  #raw: object | undefined;
  #rawJson = "";
  #payload: object | undefined;
  #payloadJson = "";

  serialize(event: object): string {
    const record = event as Record<string, unknown>;
    const rawValue = record.raw;
    if (typeof rawValue !== "object" || rawValue === null || !isSpliceable(record))
      return JSON.stringify(event);
    const rawJson = this.#rawOf(rawValue);
    // `undefined` is left out by JSON.stringify; putting the value back keeps the object (and its shape) as it was.
    record.raw = undefined;
    let head: string;
    try {
      head = JSON.stringify(event);
    } finally {
      record.raw = rawValue;
    }
    return head.length > 2 ? `${head.slice(0, -1)},"raw":${rawJson}}` : `{"raw":${rawJson}}`;
  }

  /** Forgets the cached raw, so the serializer holds no reference to a record it has done with. */
  reset(): void {
    this.#raw = undefined;
    this.#rawJson = "";
    this.#payload = undefined;
    this.#payloadJson = "";
  }

  #rawOf(rawValue: object): string {
    if (rawValue === this.#raw) return this.#rawJson;
    const record = rawValue as Record<string, unknown>;
    const payload = record.payload;
    let json: string;
    if (
      payload === this.#payload &&
      typeof payload === "object" &&
      payload !== null &&
      isSpliceable(record, "payload")
    ) {
      record.payload = undefined;
      let head: string;
      try {
        head = JSON.stringify(record);
      } finally {
        record.payload = payload;
      }
      json =
        head.length > 2
          ? `${head.slice(0, -1)},"payload":${this.#payloadJson}}`
          : `{"payload":${this.#payloadJson}}`;
    } else {
      json = JSON.stringify(rawValue);
      if (typeof payload === "object" && payload !== null) {
        this.#payload = payload;
        this.#payloadJson = JSON.stringify(payload);
      }
    }
    this.#raw = rawValue;
    this.#rawJson = json;
    return json;
  }
}

/** The JSON line of each event (see EventSerializer). */
export function serializeEvents(events: readonly object[]): string[] {
  const serializer = new EventSerializer();
  return events.map((event) => serializer.serialize(event));
}

/** A plain, writable object whose last key is `last` (JSON.stringify and `for…in` then agree on the keys). */
function isSpliceable(record: Record<string, unknown>, last = "raw"): boolean {
  if (Object.getPrototypeOf(record) !== Object.prototype || Object.isFrozen(record)) return false;
  let lastKey: string | undefined;
  for (const key in record) lastKey = key;
  return lastKey === last && !Object.hasOwn(record, "toJSON");
}
