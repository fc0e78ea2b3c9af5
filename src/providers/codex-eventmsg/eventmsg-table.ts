import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { type JsonObject, str } from "../../kit/guards.js";
import type { CoverageKind } from "../../kit/mapper.js";
import { unknownKindWarning } from "../../kit/warnings.js";
import type { EventMsgCore } from "./core.js";
import { EVENTMSG_TYPES_0_114, EVENTMSG_TYPES_SINCE_0_114 } from "./eventmsg-types.js";
import { collabHandlers } from "./handlers/collab.js";
import { messageHandlers } from "./handlers/messages.js";
import { miscHandlers } from "./handlers/misc.js";
import { requestHandlers } from "./handlers/requests.js";
import type { EventMsgTable } from "./handlers/table.js";
import { toolHandlers } from "./handlers/tools.js";
import { turnItemHandlers } from "./handlers/turn-items.js";
import { turnHandlers } from "./handlers/turns.js";

/** Every EventMsg `type` → its handler. The one registry both coverage and mapping read. */
export const EVENTMSG_TABLE: EventMsgTable = {
  ...turnHandlers,
  ...messageHandlers,
  ...turnItemHandlers,
  ...toolHandlers,
  ...requestHandlers,
  ...collabHandlers,
  ...miscHandlers,
};

/** Maps one EventMsg payload; an unknown `type` is a warning with raw (possible protocol drift). */
export function mapEventMsg(core: EventMsgCore, payload: JsonObject, raw: RuntimeEventRaw): RuntimeEvent[] {
  const type = str(payload.type);
  const handler = type === undefined ? undefined : EVENTMSG_TABLE[type];
  if (type === undefined || handler === undefined || !Object.hasOwn(EVENTMSG_TABLE, type)) {
    return [unknownKindWarning(core.b, "EventMsg type", type ?? "(none)", raw, core.ctx(raw))];
  }
  return handler.handle({ core, p: payload, raw, type });
}

/** Coverage rows of the EventMsg table: the 0.114.0 surface, then the types later rollouts added. */
export function eventMsgCoverage(group = "event_msg"): CoverageKind[] {
  const rows: CoverageKind[] = [];
  for (const kind of EVENTMSG_TYPES_0_114) rows.push(rowOf(group, kind));
  for (const kind of EVENTMSG_TYPES_SINCE_0_114) {
    const row = rowOf(group, kind);
    row.note = `${row.note ? `${row.note}; ` : ""}not in the 0.114.0 schema: written by 0.171.0 rollouts`;
    rows.push(row);
  }
  return rows;
}

function rowOf(group: string, kind: string): CoverageKind {
  const handler = Object.hasOwn(EVENTMSG_TABLE, kind) ? EVENTMSG_TABLE[kind] : undefined;
  if (handler === undefined) return { group, kind, yields: [] };
  const row: CoverageKind = { group, kind, yields: [...handler.yields] };
  if (handler.note !== undefined) row.note = handler.note;
  return row;
}
