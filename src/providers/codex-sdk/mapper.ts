import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { isObject, str } from "../../kit/guards.js";
import { malformedRecordWarning, unknownKindWarning } from "../../kit/warnings.js";
import { CODEX_SDK_EVENT_KINDS, HOST_RECORD_KINDS } from "./event-kinds.js";
import { CodexSdkThreadState } from "./thread-state.js";

export const THREAD_EVENT_SOURCE = "codex.sdk.thread-event" as const;
export const HOST_RECORD_SOURCE = "runtime.driver" as const;

/** Codex SDK ThreadEvents → canonical events: each record's `type` picks its handler in the kinds table. */
export class CodexSdkMapper extends CodexSdkThreadState {
  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const type = isObject(entry.msg) ? str(entry.msg.type) : undefined;
    return raw(entry.dir === "in" ? THREAD_EVENT_SOURCE : HOST_RECORD_SOURCE, entry.msg, undefined, type);
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const rawRecord = this.rawOf(entry);
    const msg = entry.msg;
    const what = entry.dir === "in" ? "Codex SDK thread event" : "host record";
    if (!isObject(msg)) return [malformedRecordWarning(this.builder, what, "not a JSON object", rawRecord)];
    const type = str(msg.type);
    if (type === undefined) return [malformedRecordWarning(this.builder, what, "no `type`", rawRecord)];
    const table = entry.dir === "in" ? CODEX_SDK_EVENT_KINDS : HOST_RECORD_KINDS;
    const kind = Object.hasOwn(table, type) ? table[type] : undefined;
    if (kind === undefined) return [unknownKindWarning(this.builder, what, type, rawRecord, this.context())];
    return kind.handle(this, msg, rawRecord);
  }
}
