import type { RuntimeEventRaw } from "../../../contracts/envelope.js";
import type { RuntimeEventType } from "../../../contracts/event-types.js";
import type { RuntimeEvent } from "../../../contracts/events.js";
import type { JsonObject } from "../../../kit/guards.js";
import type { EventMsgCore } from "../core.js";

/** What a handler sees of one EventMsg: its payload (with `type`), the raw record, the shared state. */
export interface MsgContext {
  core: EventMsgCore;
  p: JsonObject;
  raw: RuntimeEventRaw;
  type: string;
}

/** One row of the table: what the kind yields (for coverage) and how it is mapped. */
export interface EventMsgHandler {
  yields: RuntimeEventType[];
  note?: string;
  handle(ctx: MsgContext): RuntimeEvent[];
}

export type EventMsgTable = Record<string, EventMsgHandler>;
