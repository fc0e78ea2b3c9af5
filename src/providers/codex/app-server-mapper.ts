import type { RawSource } from "../../contracts/enums.js";
import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { idKey, isObject, type JsonObject, str } from "../../kit/guards.js";
import { idScopeOf } from "../../kit/ids.js";
import type { MapperOptions } from "../../kit/mapper.js";
import { CODEX_NOTIFICATIONS } from "./app-server-notifications.js";
import { mapReplyToServerRequest, mapServerRequest } from "./app-server-requests.js";
import { mapResponse } from "./app-server-responses.js";
import { CodexAppServerState, HandlerContext } from "./app-server-state.js";

/** The four JSON-RPC shapes (Codex sends no `jsonrpc` field; the shape alone tells them apart). */
type MessageShape = "request" | "notification" | "response" | "invalid";

export function shapeOf(msg: unknown): MessageShape {
  if (!isObject(msg)) return "invalid";
  const hasMethod = typeof msg.method === "string";
  const hasId = idKey(msg.id) !== undefined;
  if (hasMethod) return hasId ? "request" : "notification";
  if (hasId && ("result" in msg || "error" in msg)) return "response";
  return "invalid";
}

const SOURCE: Record<MessageShape, RawSource> = {
  request: "codex.app-server.request",
  notification: "codex.app-server.notification",
  response: "codex.app-server.response",
  invalid: "codex.app-server.notification",
};

/**
 * `codex app-server` JSON-RPC traffic → canonical events. Inbound notifications and server requests go through
 * the handler tables; outbound lines (`dir: "out"`) are our own requests (kept to correlate their replies) and our
 * replies to server requests (which resolve them).
 */
export class CodexAppServerMapper extends BaseMapper {
  readonly state: CodexAppServerState;

  constructor(options: MapperOptions) {
    super("codex-app-server", "codex", options);
    this.state = new CodexAppServerState(idScopeOf(options), this.cap);
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    const msg = entry.msg;
    const method = isObject(msg) ? str(msg.method) : undefined;
    return raw(SOURCE[shapeOf(msg)], msg, method);
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const ctx = new HandlerContext(this.builder, this.state, this.rawOf(entry));
    const msg = entry.msg;
    const shape = shapeOf(msg);
    if (shape === "invalid" || !isObject(msg)) {
      ctx.warn("malformed app-server message: not a request, notification or response", {
        reason: "malformed-record",
      });
      return ctx.out;
    }
    if (entry.dir === "out") {
      this.mapOutgoing(ctx, shape, msg);
      return ctx.out;
    }
    const method = str(msg.method) ?? "";
    const params = isObject(msg.params) ? msg.params : {};
    if (shape === "request") mapServerRequest(ctx, method, msg);
    else if (shape === "response") mapResponse(ctx, msg);
    else {
      const handler = CODEX_NOTIFICATIONS[method];
      if (handler === undefined)
        ctx.warn(`unknown notification "${method}"`, { reason: "unknown-kind", kind: method });
      else handler.handle(ctx, params, msg);
    }
    // Every inbound record is accounted for, even when it changed nothing (a repeated start, say).
    if (ctx.out.length === 0)
      ctx.emit("provider.event", { name: method || "response", summary: "no change" });
    return ctx.out;
  }

  /** Our own traffic: requests are remembered for their replies; replies to server requests resolve them. */
  private mapOutgoing(ctx: HandlerContext, shape: MessageShape, msg: JsonObject): void {
    const id = idKey(msg.id);
    if (shape === "request" && id !== undefined) {
      this.state.outgoing.set(id, { method: str(msg.method) ?? "", params: msg.params });
    } else if (shape === "response") {
      mapReplyToServerRequest(ctx, msg);
    }
  }
}
