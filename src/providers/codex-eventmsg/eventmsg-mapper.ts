import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { asObject, idKey, isObject, str } from "../../kit/guards.js";
import type { MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning, providerEvent, unknownKindWarning } from "../../kit/warnings.js";
import { EventMsgCore } from "./core.js";
import { mapEventMsg } from "./eventmsg-table.js";
import { timestampOf } from "./fields.js";

const LEGACY_PREFIX = "codex/event/";

/**
 * `--from codex-eventmsg`: the legacy app-server notifications `{method: "codex/event/<type>", params: {msg,
 * id?, conversationId?}}`, bare EventMsg objects `{type, ...}`, and rollout `event_msg` lines.
 */
export class CodexEventMsgMapper extends BaseMapper {
  readonly core: EventMsgCore;

  constructor(options: MapperOptions) {
    super("codex-eventmsg", "codex", options);
    this.core = new EventMsgCore(this.builder, options.sessionId, this.cap);
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const msg = asObject(entry.msg);
    if (msg === undefined) return raw("codex.eventmsg", entry.msg);
    const params = msg.params;
    const payload = (isObject(params) ? asObject(params.msg) : undefined) ?? asObject(msg.payload) ?? msg;
    return raw("codex.eventmsg", msg, str(msg.method), str(payload.type));
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const rawRecord = this.rawOf(entry);
    const core = this.core;
    core.lastRaw = rawRecord;
    const msg = entry.msg;
    if (!isObject(msg))
      return [malformedRecordWarning(this.builder, "EventMsg record", "not an object", rawRecord)];
    if (entry.t === undefined) this.builder.at(timestampOf(msg.timestamp));
    if (entry.dir === "out")
      return [providerEvent(this.builder, "outbound", rawRecord, str(msg.method), core.ctx(rawRecord))];
    const method = str(msg.method);
    if (method?.startsWith(LEGACY_PREFIX)) {
      const params = asObject(msg.params);
      const payload = asObject(params?.msg);
      if (params === undefined || payload === undefined) {
        return [
          malformedRecordWarning(
            this.builder,
            method,
            "params.msg is not an object",
            rawRecord,
            core.ctx(rawRecord),
          ),
        ];
      }
      const events = core.ensureThread(idKey(params.conversationId), rawRecord);
      const typed =
        str(payload.type) === undefined ? { ...payload, type: method.slice(LEGACY_PREFIX.length) } : payload;
      events.push(...mapEventMsg(core, typed, rawRecord));
      return events;
    }
    if (method !== undefined) {
      return [
        providerEvent(this.builder, method, rawRecord, "not an EventMsg notification", core.ctx(rawRecord)),
      ];
    }
    if (msg.type === "event_msg" && isObject(msg.payload)) return mapEventMsg(core, msg.payload, rawRecord);
    if (typeof msg.type === "string") return mapEventMsg(core, msg, rawRecord);
    if ("id" in msg && ("result" in msg || "error" in msg)) {
      return [providerEvent(this.builder, "response", rawRecord, "a JSON-RPC response", core.ctx(rawRecord))];
    }
    return [unknownKindWarning(this.builder, "EventMsg record", "(no type)", rawRecord, core.ctx(rawRecord))];
  }

  override finish(): RuntimeEvent[] {
    // The turn closed here ends like any other: the state semantics put the session back to ready.
    const events = this.states.apply(this.builder, this.core.finishReplay());
    for (const event of events) this.lifecycle.observe(event);
    return events;
  }
}
