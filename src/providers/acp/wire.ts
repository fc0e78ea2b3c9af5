import type { RuntimeErrorClass } from "../../contracts/enums.js";
import { idKey, isObject, type JsonObject, num, str } from "../../kit/guards.js";

/** One JSON-RPC 2.0 message, classified by shape (ACP has no batches). */
export type AcpWireMessage =
  | { shape: "request"; id: string; method: string; params: JsonObject }
  | { shape: "notification"; method: string; params: JsonObject }
  | { shape: "response"; id: string; result: unknown }
  | { shape: "error"; id: string | undefined; error: AcpRpcError }
  | { shape: "bookkeeping" }
  | { shape: "invalid"; problem: string };

export interface AcpRpcError {
  code: number | undefined;
  message: string;
  data: unknown;
}

export function classifyMessage(msg: unknown): AcpWireMessage {
  if (!isObject(msg)) return { shape: "invalid", problem: "not a JSON object" };
  if (isProbeBookkeeping(msg)) return { shape: "bookkeeping" };
  const method = str(msg.method);
  const id = idKey(msg.id);
  const params = isObject(msg.params) ? msg.params : {};
  if (method !== undefined) {
    return id === undefined
      ? { shape: "notification", method, params }
      : { shape: "request", id, method, params };
  }
  if ("error" in msg) {
    const error = isObject(msg.error) ? msg.error : {};
    return {
      shape: "error",
      id,
      error: { code: num(error.code), message: str(error.message) ?? "JSON-RPC error", data: error.data },
    };
  }
  if (id !== undefined && "result" in msg) return { shape: "response", id, result: msg.result };
  return { shape: "invalid", problem: "neither a request, a notification nor a response" };
}

/** JSON-RPC / ACP error codes (protocols surface `ErrorCode`). */
export const ACP_ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  requestCancelled: -32800,
  authRequired: -32000,
  resourceNotFound: -32002,
} as const;

/** §5.4: how an ACP error code reads in the canonical model. */
export function errorClassOf(code: number | undefined): RuntimeErrorClass {
  switch (code) {
    case ACP_ERROR.methodNotFound:
    case ACP_ERROR.invalidParams:
    case ACP_ERROR.invalidRequest:
    case ACP_ERROR.parse:
      return "validation_error";
    case ACP_ERROR.authRequired:
      return "permission_error";
    case ACP_ERROR.internal:
    case ACP_ERROR.resourceNotFound:
    case ACP_ERROR.requestCancelled:
      return "provider_error";
    default:
      return "unknown";
  }
}

/** -32601 / -32602: the agent does not support what we asked; the session goes on (a warning, not an error). */
export function isRecoverableError(code: number | undefined): boolean {
  return code === ACP_ERROR.methodNotFound || code === ACP_ERROR.invalidParams;
}

/**
 * A probe transcript's non-wire line (`{ts, channel: "scenario-result" | "permission-decision" | "lifecycle", ...}`)
 * that reached the mapper whole because it has no `message` field. It is not ACP traffic: it maps to nothing.
 */
function isProbeBookkeeping(msg: JsonObject): boolean {
  return (
    typeof msg.channel === "string" &&
    msg.jsonrpc === undefined &&
    msg.method === undefined &&
    msg.id === undefined
  );
}
