import type { RawSource } from "../contracts/enums.js";
import type { RuntimeEventRaw } from "../contracts/envelope.js";
import type { RuntimeEvent } from "../contracts/events.js";
import { type EventBuilder, type EventContext, raw } from "./event-builder.js";
import type { TranscriptEntry } from "./transcript.js";

/** A native kind the mapper does not know: possible protocol drift, so the user should see it. */
export function unknownKindWarning(
  builder: EventBuilder,
  what: string,
  kind: string,
  rawRecord: RuntimeEventRaw,
  context: EventContext = {},
): RuntimeEvent {
  return builder.emit(
    "runtime.warning",
    { message: `unknown ${what} "${kind}"`, detail: { reason: "unknown-kind", kind } },
    { ...context, raw: rawRecord },
  );
}

/** A record of a known kind whose shape is not what the protocol promises. */
export function malformedRecordWarning(
  builder: EventBuilder,
  kind: string,
  problem: string,
  rawRecord: RuntimeEventRaw,
  context: EventContext = {},
): RuntimeEvent {
  return builder.emit(
    "runtime.warning",
    { message: `malformed ${kind}: ${problem}`, detail: { reason: "malformed-record", kind } },
    { ...context, raw: rawRecord },
  );
}

/** A known native message that no canonical family fits (DESIGN.md §2). */
export function providerEvent(
  builder: EventBuilder,
  name: string,
  rawRecord: RuntimeEventRaw,
  summary?: string,
  context: EventContext = {},
): RuntimeEvent {
  return builder.emit("provider.event", summary === undefined ? { name } : { name, summary }, {
    ...context,
    raw: rawRecord,
  });
}

/**
 * Entries that are not messages: a malformed line becomes a warning (`detail.reason` is "malformed-line", or
 * "too-deep" / "too-long" for a line that could not be read at all); a skipped bookkeeping channel gives nothing
 * (it is not wire traffic). Returns undefined for message entries, which the mapper handles itself.
 */
export function mapNonMessageEntry(
  builder: EventBuilder,
  entry: TranscriptEntry,
  source: RawSource = "runtime.transcript",
): RuntimeEvent[] | undefined {
  if (entry.kind === "message") return undefined;
  if (entry.kind === "skipped") return [];
  builder.at(entry.t);
  const where = entry.line === undefined ? "" : ` at line ${entry.line}`;
  return [
    builder.emit(
      "runtime.warning",
      {
        message: `malformed transcript line${where}: ${entry.reason}`,
        detail: { reason: entry.code ?? "malformed-line" },
      },
      { raw: raw(source, entry.text) },
    ),
  ];
}
