import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { asObject, isObject, str } from "../../kit/guards.js";
import type { MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning, providerEvent, unknownKindWarning } from "../../kit/warnings.js";
import { EventMsgCore } from "./core.js";
import { timestampOf } from "./fields.js";
import { ROLLOUT_LINE_TABLE } from "./rollout-lines.js";

/**
 * `--from codex-rollout`: a Codex session file (`$CODEX_HOME/sessions/**\/rollout-*.jsonl`), one
 * `{timestamp, type, payload}` line per record. Events take the line's `timestamp` as their time.
 */
export class CodexRolloutMapper extends BaseMapper {
  readonly core: EventMsgCore;

  constructor(options: MapperOptions) {
    super("codex-rollout", "codex", options);
    this.core = new EventMsgCore(this.builder, options.sessionId, this.cap);
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const line = asObject(entry.msg);
    const type = str(line?.type);
    const messageType = type === "event_msg" ? str(asObject(line?.payload)?.type) : type;
    return raw("codex.rollout", entry.msg, undefined, messageType);
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const rawRecord = this.rawOf(entry);
    const core = this.core;
    core.lastRaw = rawRecord;
    const line = entry.msg;
    if (!isObject(line))
      return [malformedRecordWarning(this.builder, "rollout line", "not an object", rawRecord)];
    if (entry.t === undefined) this.builder.at(timestampOf(line.timestamp));
    if (entry.dir === "out")
      return [providerEvent(this.builder, "outbound", rawRecord, undefined, core.ctx(rawRecord))];
    const type = str(line.type);
    const handler =
      type !== undefined && Object.hasOwn(ROLLOUT_LINE_TABLE, type) ? ROLLOUT_LINE_TABLE[type] : undefined;
    if (type === undefined || handler === undefined) {
      return [
        unknownKindWarning(
          this.builder,
          "rollout line type",
          type ?? "(none)",
          rawRecord,
          core.ctx(rawRecord),
        ),
      ];
    }
    const payload = asObject(line.payload);
    if (payload === undefined) {
      return [
        malformedRecordWarning(
          this.builder,
          type,
          "payload is not an object",
          rawRecord,
          core.ctx(rawRecord),
        ),
      ];
    }
    return handler.handle({ core, payload, raw: rawRecord, type });
  }

  override finish(): RuntimeEvent[] {
    // The turn closed here ends like any other: the state semantics put the session back to ready.
    const events = this.states.apply(this.builder, this.core.finishReplay());
    for (const event of events) this.lifecycle.observe(event);
    return events;
  }
}
