import type { RuntimeEventType } from "../../contracts/event-types.js";
import type { JsonObject } from "../../kit/guards.js";
import type { HandlerContext } from "./app-server-state.js";

/** One row of a handler table: what a native method maps to, and how. */
export interface CodexHandler {
  /** The canonical types this method can yield (the coverage table lists them). */
  yields: RuntimeEventType[];
  handle(ctx: HandlerContext, params: JsonObject, message: JsonObject): void;
  /** Why a kind maps the way it does, when that is not obvious. */
  note?: string;
}

export type CodexHandlerTable = Record<string, CodexHandler>;
