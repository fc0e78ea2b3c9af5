import type { RuntimeEventRaw } from "../contracts/envelope.js";
import type { RuntimeEvent } from "../contracts/events.js";
import type { EventBuilder } from "./event-builder.js";

/**
 * Runs one record's handler; if it throws (a native shape nobody foresaw), the record still becomes an event:
 * a `runtime.warning` with its raw. The mapper never throws and never drops the record.
 */
export function mapSafely(
  builder: EventBuilder,
  rawOf: RuntimeEventRaw | (() => RuntimeEventRaw),
  handle: () => RuntimeEvent[],
): RuntimeEvent[] {
  try {
    return handle();
  } catch (error) {
    // The raw is only needed here, so a mapper can hand over a function and pay for it only on failure.
    return mapperErrorEvents(builder, typeof rawOf === "function" ? rawOf() : rawOf, error);
  }
}

/** What a failed handler leaves of its record: one `runtime.warning` with the error and the record's raw. */
export function mapperErrorEvents(
  builder: EventBuilder,
  rawRecord: RuntimeEventRaw,
  error: unknown,
): RuntimeEvent[] {
  const message = error instanceof Error ? error.message : String(error);
  return [
    builder.emit(
      "runtime.warning",
      {
        message: `could not map ${rawRecord.method ?? rawRecord.messageType ?? "record"}: ${message}`,
        detail: { reason: "mapper-error" },
      },
      { raw: rawRecord },
    ),
  ];
}
