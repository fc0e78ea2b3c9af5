import type { IncomingHttpHeaders } from "node:http";
import type { ReplyLabel } from "./scenarios.js";

export interface MockRequestRecord {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when there was none, it was not JSON, or it was let go (`bodyDropped`). */
  body: unknown;
  /** The decoded body's size in bytes (0 until it has been read). */
  bodyBytes: number;
  /** Whether the body was let go to keep the log under its byte cap (the oldest bodies go first). */
  bodyDropped: boolean;
  /** What the mock answered with; undefined for requests that are not model turns. */
  scenario: ReplyLabel | undefined;
  /** The HTTP status sent; 0 until the response has closed, or when none was sent. */
  status: number;
}

/**
 * The requests a mock keeps for tests to inspect: the latest `maxRecords` of them, and of their bodies no more
 * than `maxBodyBytes` in all (a body is let go, oldest first, to make room; one larger than the cap is not kept).
 * `records` is the array the server hands out, changed in place.
 */
export class RequestLog {
  readonly records: MockRequestRecord[] = [];
  /** The records whose body is kept, oldest first, with the bytes each counts. */
  readonly #kept = new Map<MockRequestRecord, number>();
  #keptBytes = 0;

  constructor(
    readonly maxRecords: number,
    readonly maxBodyBytes: number,
  ) {}

  add(record: MockRequestRecord): void {
    this.records.push(record);
    if (this.records.length <= this.maxRecords) return;
    for (const old of this.records.splice(0, this.records.length - this.maxRecords)) this.#release(old);
  }

  /** Sets the record's parsed body, which was `bytes` long, if the cap allows. */
  keepBody(record: MockRequestRecord, body: unknown, bytes: number): void {
    record.bodyBytes = bytes;
    if (body === undefined) return;
    if (bytes > this.maxBodyBytes || !this.records.includes(record)) {
      record.bodyDropped = true;
      return;
    }
    record.body = body;
    this.#kept.set(record, bytes);
    this.#keptBytes += bytes;
    for (const [old] of this.#kept) {
      if (this.#keptBytes <= this.maxBodyBytes) break;
      this.#release(old);
      old.body = undefined;
      old.bodyDropped = true;
    }
  }

  #release(record: MockRequestRecord): void {
    const bytes = this.#kept.get(record);
    if (bytes === undefined) return;
    this.#kept.delete(record);
    this.#keptBytes -= bytes;
  }
}
