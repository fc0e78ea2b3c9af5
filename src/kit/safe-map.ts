import type { RuntimeEventRaw } from "../contracts/envelope.js";
import type { RuntimeEvent } from "../contracts/events.js";
import type { EventBuilder } from "./event-builder.js";

/**
 * What a handler that threw (a native shape nobody foresaw) leaves of its record: one `runtime.warning` with the
 * error and the record's raw. The mapper never throws and never drops the record.
 */
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
