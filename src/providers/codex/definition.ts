import type { CoverageKind, MapperDefinition, SourceCoverage } from "../../kit/mapper.js";
import { CODEX_ITEM_TYPES } from "./app-server-items.js";
import { CodexAppServerMapper } from "./app-server-mapper.js";
import { CODEX_NOTIFICATIONS } from "./app-server-notifications.js";
import { CODEX_SERVER_REQUESTS } from "./app-server-requests.js";
import { CODEX_RESPONSE_KINDS } from "./app-server-responses.js";

export const CODEX_PACKAGE = "@openai/codex";
/** The pinned version whose surface the tables cover (a test compares it with the installed package). */
export const CODEX_VERSION = "0.171.0";

/** The `codex-app-server` source: JSON-RPC traffic of `codex app-server` (both directions). */
export const codexAppServerDefinition: MapperDefinition = {
  source: "codex-app-server",
  provider: "codex",
  create: (options) => new CodexAppServerMapper(options),
  coverage: codexAppServerCoverage,
};

/**
 * Rows straight from the handler tables: `notification` = ServerNotification methods, `request` = ServerRequest
 * methods, `response` = replies to our own requests, `item` = v2 ThreadItem types.
 */
export function codexAppServerCoverage(): SourceCoverage {
  const kinds: CoverageKind[] = [];
  for (const [kind, handler] of Object.entries(CODEX_NOTIFICATIONS)) {
    const row: CoverageKind = { group: "notification", kind, yields: handler.yields };
    kinds.push(handler.note === undefined ? row : { ...row, note: handler.note });
  }
  for (const [kind, spec] of Object.entries(CODEX_SERVER_REQUESTS)) {
    kinds.push({
      group: "request",
      kind,
      yields: spec.isUserInput
        ? ["request.opened", "user-input.requested", "user-input.resolved", "request.resolved"]
        : ["request.opened", "request.resolved"],
      note: `requestType ${spec.requestType}; resolved by our reply or serverRequest/resolved`,
    });
  }
  for (const kind of CODEX_RESPONSE_KINDS) {
    kinds.push({
      group: "response",
      kind,
      yields:
        kind === "initialize"
          ? ["session.configured"]
          : kind === "turn/start"
            ? ["provider.event"]
            : ["session.started", "thread.started", "session.configured", "session.state.changed"],
      note: "our request is an outgoing line that only correlates; its reply yields these",
    });
  }
  for (const [kind, itemType] of Object.entries(CODEX_ITEM_TYPES)) {
    kinds.push({
      group: "item",
      kind,
      yields: ["item.started", "item.updated", "item.completed"],
      note: `itemType ${itemType}`,
    });
  }
  return { package: CODEX_PACKAGE, version: CODEX_VERSION, kinds, unhandled: [] };
}
