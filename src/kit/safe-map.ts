import type { RuntimeEventRaw } from "../contracts/envelope.js";
import type { RuntimeEvent } from "../contracts/events.js";
import type { EventBuilder } from "./event-builder.js";

/**
 * Runs one record's handler; if it throws (a native shape nobody foresaw), the record still becomes an event:
 * a `runtime.warning` with its raw. The mapper never throws and never drops the record.
 */
export function mapSafely(
  builder: EventBuilder,
  rawRecord: RuntimeEventRaw,
  handle: () => RuntimeEvent[],
): RuntimeEvent[] {
  try {
    return handle();
  } catch (error) {
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
}
