import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { BaseMapper, type MessageEntry } from "../../kit/base-mapper.js";
import { raw } from "../../kit/event-builder.js";
import { isObject, own, str } from "../../kit/guards.js";
import { idScopeOf, mintId } from "../../kit/ids.js";
import type { MapperOptions } from "../../kit/mapper.js";
import { malformedRecordWarning, providerEvent, unknownKindWarning } from "../../kit/warnings.js";
import { AGENT_RESPONSE_HANDLERS, mapAgentError } from "./agent-responses.js";
import {
  CLIENT_METHOD_HANDLERS,
  type ClientMethodHandler,
  openInboundRequest,
  resolveInboundRequest,
} from "./client-methods.js";
import { CURSOR_EXTENSION_HANDLERS } from "./cursor-extensions.js";
import { mcpServerNamesOf } from "./mcp-tool-titles.js";
import type { AcpProfile } from "./profile.js";
import { AcpSessionState, type InboundRequest } from "./session-state.js";
import { SESSION_UPDATE_HANDLERS } from "./session-updates.js";
import { CHILD_ITEM_KINDS } from "./subagents.js";
import { type AcpWireMessage, classifyMessage } from "./wire.js";

/** Our requests that give the session its MCP servers. */
const SESSION_OPENERS = new Set(["session/new", "session/load", "session/fork"]);

/**
 * Maps both directions of an ACP connection. Inbound: the agent's notifications, requests and answers to our
 * requests. Outbound: our requests (correlation; `session/prompt` starts a turn) and our answers to the agent's
 * requests (they resolve canonical requests).
 */
export class AcpMapper extends BaseMapper {
  readonly state: AcpSessionState;

  constructor(
    readonly profile: AcpProfile,
    options: MapperOptions,
  ) {
    super(profile.source, profile.provider, options);
    this.state = new AcpSessionState(idScopeOf(options), this.cap);
  }

  /** For drivers: the canonical request opened for the agent's JSON-RPC request `jsonRpcId`, while it is open. */
  openRequestIdFor(jsonRpcId: string | number): string | undefined {
    return this.state.inboundFor(String(jsonRpcId))?.id;
  }

  /** Whether the canonical request `requestId` is open (the agent asked; our answer has not gone out). */
  isOpenRequest(requestId: string): boolean {
    return this.state.inbound.openEntries().some((entry) => entry.id === requestId);
  }

  inboundRequest(jsonRpcId: string | number): InboundRequest | undefined {
    return this.state.inboundFor(String(jsonRpcId))?.request;
  }

  protected rawOf(entry: MessageEntry): RuntimeEventRaw {
    return this.rawOfWire(classifyMessage(entry.msg), entry.msg);
  }

  protected mapMessage(entry: MessageEntry): RuntimeEvent[] {
    const wire = classifyMessage(entry.msg);
    const rawRecord = this.rawOfWire(wire, entry.msg);
    if (wire.shape === "bookkeeping") return [];
    if (wire.shape === "invalid") {
      return [
        malformedRecordWarning(
          this.builder,
          "JSON-RPC message",
          wire.problem,
          rawRecord,
          this.state.context(rawRecord),
        ),
      ];
    }
    return entry.dir === "in" ? this.mapInbound(wire, rawRecord) : this.mapOutbound(wire, rawRecord);
  }

  private rawOfWire(wire: AcpWireMessage, msg: unknown): RuntimeEventRaw {
    const tags = this.profile.tags;
    switch (wire.shape) {
      case "request":
        return raw(tags.request, msg, wire.method);
      case "notification": {
        const update =
          wire.method === "session/update" && isObject(wire.params.update) ? wire.params.update : undefined;
        return raw(tags.notification, msg, wire.method, str(update?.sessionUpdate));
      }
      case "response":
      case "error": {
        const method = wire.id === undefined ? undefined : this.state.outgoing.get(wire.id)?.method;
        return raw(tags.response, msg, method);
      }
      default:
        return raw(tags.notification, msg);
    }
  }

  private clientHandler(method: string): ClientMethodHandler | undefined {
    if (this.profile.extensionMethods.includes(method)) return own(CURSOR_EXTENSION_HANDLERS, method);
    return own(CLIENT_METHOD_HANDLERS, method);
  }

  private mapInbound(
    wire: Exclude<AcpWireMessage, { shape: "invalid" | "bookkeeping" }>,
    rawRecord: RuntimeEventRaw,
  ): RuntimeEvent[] {
    const { state, builder: b } = this;
    switch (wire.shape) {
      case "notification": {
        if (wire.method === "session/update") return this.mapUpdate(wire.params, rawRecord);
        const handler = this.clientHandler(wire.method);
        if (handler?.events === undefined) {
          return [
            unknownKindWarning(b, "ACP notification", wire.method, rawRecord, state.context(rawRecord)),
          ];
        }
        return handler.events({ state, b, method: wire.method, params: wire.params, raw: rawRecord });
      }
      case "request": {
        const refused = state.clientCapabilities.refused(wire.method);
        if (refused !== undefined) {
          state.refusedCalls.set(wire.id, true);
          return [
            providerEvent(
              b,
              wire.method,
              rawRecord,
              `refused: the client does not offer ${refused}`,
              state.context(rawRecord),
            ),
          ];
        }
        const handler = this.clientHandler(wire.method);
        const input = { state, b, method: wire.method, params: wire.params, raw: rawRecord };
        if (handler === undefined) {
          // The SDK answers it with -32601; the request is opened so that answer resolves it.
          return [
            unknownKindWarning(b, "ACP request", wire.method, rawRecord, state.context(rawRecord)),
            ...openInboundRequest(input, { yields: [] }, wire.id),
          ];
        }
        return openInboundRequest(input, handler, wire.id);
      }
      case "response":
      case "error":
        return this.mapAgentAnswer(wire, rawRecord);
    }
  }

  private mapAgentAnswer(
    wire: Extract<AcpWireMessage, { shape: "response" | "error" }>,
    rawRecord: RuntimeEventRaw,
  ): RuntimeEvent[] {
    const { state, builder: b } = this;
    const request = wire.id === undefined ? undefined : state.outgoing.release(wire.id);
    if (wire.id === undefined || request === undefined) {
      const what =
        wire.shape === "error"
          ? `an error (${wire.error.code ?? "no code"}: ${wire.error.message})`
          : "a response";
      return [
        b.emit(
          "runtime.warning",
          {
            message: `agent sent ${what} to no request of ours (id ${wire.id ?? "null"})`,
            detail: { reason: "unmatched-response" },
          },
          state.context(rawRecord),
        ),
      ];
    }
    if (wire.shape === "error") {
      return mapAgentError({ state, b, request, id: wire.id, error: wire.error, raw: rawRecord });
    }
    const result = isObject(wire.result) ? wire.result : {};
    const handler = own(AGENT_RESPONSE_HANDLERS, request.method);
    if (handler === undefined) {
      return [
        unknownKindWarning(b, "ACP method answered", request.method, rawRecord, state.context(rawRecord)),
      ];
    }
    return handler.map({ state, b, request, id: wire.id, result, raw: rawRecord });
  }

  private mapUpdate(params: Record<string, unknown>, rawRecord: RuntimeEventRaw): RuntimeEvent[] {
    const { state, builder: b } = this;
    const update = isObject(params.update) ? params.update : undefined;
    const kind = str(update?.sessionUpdate);
    if (update === undefined || kind === undefined) {
      return [
        malformedRecordWarning(
          b,
          "session/update",
          "no update.sessionUpdate",
          rawRecord,
          state.context(rawRecord),
        ),
      ];
    }
    const handler = own(SESSION_UPDATE_HANDLERS, kind);
    if (handler === undefined) {
      return [unknownKindWarning(b, "session/update kind", kind, rawRecord, state.context(rawRecord))];
    }
    const sessionId = str(params.sessionId);
    const parentItemId = sessionId === undefined ? undefined : state.subagentItemOf(sessionId);
    if (sessionId !== undefined && parentItemId !== undefined && sessionId !== state.providerSessionId) {
      // A subagent's own session: its items link to the subagent's item; its settings are not the session's.
      return state.inChildSession(sessionId, parentItemId, () =>
        CHILD_ITEM_KINDS.has(kind)
          ? handler.map({ state, b, update, raw: rawRecord })
          : [providerEvent(b, `subagent:${kind}`, rawRecord, undefined, state.context(rawRecord))],
      );
    }
    return handler.map({ state, b, update, raw: rawRecord });
  }

  private mapOutbound(
    wire: Exclude<AcpWireMessage, { shape: "invalid" | "bookkeeping" }>,
    rawRecord: RuntimeEventRaw,
  ): RuntimeEvent[] {
    const { state, builder: b } = this;
    switch (wire.shape) {
      case "request":
        if (wire.method === "initialize") state.clientCapabilities.advertised(wire.params);
        if (SESSION_OPENERS.has(wire.method)) state.mcpServerNames = mcpServerNamesOf(wire.params);
        state.outgoing.set(wire.id, { method: wire.method, params: wire.params });
        return wire.method === "session/prompt" ? this.startTurn(wire.id, wire.params, rawRecord) : [];
      case "notification":
        // session/cancel and other notifications we send: correlation only (the agent's answer is the prompt's).
        if (wire.method === "session/cancel" && state.currentTurnId !== undefined)
          state.cancelRequested.set(state.currentTurnId, true);
        return [];
      case "response":
        if (state.refusedCalls.release(wire.id) !== undefined) return [];
        return resolveInboundRequest(
          state,
          b,
          this.handlerOfOpen(wire.id),
          wire.id,
          { result: isObject(wire.result) ? wire.result : {} },
          rawRecord,
        );
      case "error": {
        const id = wire.id ?? "";
        // our -32601 to a call of a capability we never offered: the call's provider.event said so
        if (state.refusedCalls.release(id) !== undefined) return [];
        return resolveInboundRequest(
          state,
          b,
          this.handlerOfOpen(id),
          id,
          { error: { code: wire.error.code, message: wire.error.message } },
          rawRecord,
        );
      }
    }
  }

  private handlerOfOpen(jsonRpcId: string): ClientMethodHandler | undefined {
    const method = this.state.inboundFor(jsonRpcId)?.request.method;
    return method === undefined ? undefined : this.clientHandler(method);
  }

  /** Our `session/prompt`: a turn starts, with the user's prompt as a completed user_message item. */
  private startTurn(
    promptId: string,
    params: Record<string, unknown>,
    rawRecord: RuntimeEventRaw,
  ): RuntimeEvent[] {
    const { state, builder: b } = this;
    const events = state.closeText(b, rawRecord);
    const turnId = state.openTurn(promptId);
    const context = state.context(rawRecord, { turnId });
    events.push(b.emit("turn.started", {}, context));
    const blocks = Array.isArray(params.prompt) ? params.prompt : [];
    const text = blocks
      .map((block) => (isObject(block) ? (str(block.text) ?? "") : ""))
      .filter((part) => part.length > 0)
      .join("\n");
    const itemId = mintId(this.state.sessionId, "item", `prompt:${promptId}#${state.next()}`);
    const item = { ...context, itemId };
    // The prompt is the user's whole message (not chunks): its text is the item's details.
    const details = text.length === 0 ? {} : { details: { text } };
    events.push(b.emit("item.started", { itemType: "user_message", status: "inProgress", ...details }, item));
    events.push(
      b.emit(
        "item.completed",
        { itemType: "user_message", status: "completed", detail: text, ...details, data: { prompt: blocks } },
        item,
      ),
    );
    return events;
  }
}
