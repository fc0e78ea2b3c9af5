import type { RuntimeEventType } from "../../contracts/event-types.js";
import { own } from "../../kit/guards.js";
import type { CoverageKind, SourceCoverage } from "../../kit/mapper.js";
import { AGENT_RESPONSE_HANDLERS } from "./agent-responses.js";
import { CLIENT_METHOD_HANDLERS } from "./client-methods.js";
import { CURSOR_EXTENSION_HANDLERS } from "./cursor-extensions.js";
import type { AcpProfile } from "./profile.js";
import { SESSION_UPDATE_HANDLERS } from "./session-updates.js";

export const ACP_SDK_PACKAGE = "@agentclientprotocol/sdk";
export const ACP_SDK_VERSION = "2.4.0";

/** Methods that belong to the JSON-RPC layer rather than to either side. */
const PROTOCOL_METHODS = new Set(["$/cancel_request"]);

function row(
  group: string,
  kind: string,
  yields: RuntimeEventType[],
  note: string | undefined,
): CoverageKind {
  return note === undefined ? { group, kind, yields } : { group, kind, yields, note };
}

function unique(types: RuntimeEventType[]): RuntimeEventType[] {
  return [...new Set(types)];
}

/** The handler tables as coverage rows: ACP methods and `session/update` kinds as on the wire. */
export function acpCoverage(profile: AcpProfile): SourceCoverage {
  const kinds: CoverageKind[] = [];
  for (const [method, handler] of Object.entries(AGENT_RESPONSE_HANDLERS)) {
    const yields: RuntimeEventType[] =
      method === "session/prompt" ? ["turn.started", ...handler.yields] : [...handler.yields];
    const note =
      method === "session/prompt"
        ? handler.note
        : `our request is correlation-only; its answer yields these${handler.note === undefined ? "" : `; ${handler.note}`}`;
    kinds.push(row("agent-method", method, unique([...yields, "runtime.warning", "runtime.error"]), note));
  }
  const allUpdateYields = Object.values(SESSION_UPDATE_HANDLERS).flatMap((handler) => handler.yields);
  for (const [method, handler] of Object.entries(CLIENT_METHOD_HANDLERS)) {
    const group = PROTOCOL_METHODS.has(method) ? "protocol-method" : "client-method";
    const yields = method === "session/update" ? unique(allUpdateYields) : handler.yields;
    kinds.push(row(group, method, yields, handler.note));
  }
  for (const [kind, handler] of Object.entries(SESSION_UPDATE_HANDLERS)) {
    kinds.push(row("update", kind, handler.yields, handler.note));
  }
  for (const method of profile.extensionMethods) {
    const handler = own(CURSOR_EXTENSION_HANDLERS, method);
    if (handler !== undefined) kinds.push(row("extension", method, handler.yields, handler.note));
  }
  return { package: ACP_SDK_PACKAGE, version: ACP_SDK_VERSION, kinds, unhandled: [] };
}
