import type { RequestResponse } from "../../contracts/driver.js";
import type { ApprovalDecision } from "../../contracts/enums.js";
import { arr, isObject, type JsonObject, own, str } from "../../kit/guards.js";

/**
 * Canonical decisions ⇄ the native answers of every Codex server request. Pure: the driver uses `nativeAnswer` to
 * reply, the mapper uses `decisionOfReply` to read a recorded reply back into a canonical decision.
 */

/** A JSON-RPC reply body: `result` or `error`. */
export type NativeReply = { result: unknown } | { error: { code: number; message: string } };

const REVIEW_DECISION: Record<ApprovalDecision, (message: string | undefined) => unknown> = {
  accept: () => "approved",
  acceptForSession: () => "approved_for_session",
  decline: (message) => ({ denied: { rejection: message ?? "declined by the user" } }),
  cancel: () => "abort",
};

/** Picks acceptForSession's native form from what the request offers (`availableDecisions`). */
function commandDecision(decision: ApprovalDecision, params: JsonObject): unknown {
  if (decision !== "acceptForSession") return decision;
  const offered = arr(params.availableDecisions);
  if (offered === undefined || offered.includes("acceptForSession")) return "acceptForSession";
  const amendment = offered.find((d) => isObject(d) && "acceptWithExecpolicyAmendment" in d);
  return amendment ?? "accept";
}

function userInputAnswers(response: RequestResponse): Record<string, { answers: string[] }> {
  const answers: Record<string, { answers: string[] }> = {};
  if (response.decision !== "accept" && response.decision !== "acceptForSession") return answers;
  for (const [id, value] of Object.entries(response.answers ?? {})) {
    answers[id] = { answers: Array.isArray(value) ? value : [value] };
  }
  return answers;
}

function declined(message: string): NativeReply {
  return { error: { code: -32000, message } };
}

const isAccept = (d: ApprovalDecision) => d === "accept" || d === "acceptForSession";

/** The native reply to a server request of `method` for a canonical response. */
export function nativeAnswer(method: string, params: JsonObject, response: RequestResponse): NativeReply {
  const { decision } = response;
  const payload = isObject(response.payload) ? response.payload : undefined;
  switch (method) {
    case "item/commandExecution/requestApproval":
      return { result: { decision: payload?.decision ?? commandDecision(decision, params) } };
    case "item/fileChange/requestApproval":
      return { result: { decision } };
    case "applyPatchApproval":
    case "execCommandApproval":
      return { result: { decision: payload?.decision ?? REVIEW_DECISION[decision](response.message) } };
    case "item/permissions/requestApproval":
      return {
        result: {
          permissions: isAccept(decision) ? (payload?.permissions ?? params.permissions ?? {}) : {},
          scope: decision === "acceptForSession" ? "session" : "turn",
        },
      };
    case "item/tool/requestUserInput":
      return { result: { answers: userInputAnswers(response) } };
    case "mcpServer/elicitation/request":
      return {
        result: {
          action: isAccept(decision) ? "accept" : decision,
          content: isAccept(decision) ? (payload?.content ?? response.answers ?? {}) : null,
        },
      };
    case "item/tool/call": {
      if (payload !== undefined && Array.isArray(payload.contentItems)) return { result: payload };
      const text = response.message ?? (isAccept(decision) ? "ok" : "declined by the user");
      return { result: { success: isAccept(decision), contentItems: [{ type: "inputText", text }] } };
    }
    case "account/chatgptAuthTokens/refresh":
      return isAccept(decision) && payload?.accessToken !== undefined
        ? { result: payload }
        : declined("auth token refresh declined by the host");
    case "attestation/generate":
      return isAccept(decision) && payload?.token !== undefined
        ? { result: payload }
        : declined("attestation declined by the host");
    default:
      return declined(`no answer for ${method}`);
  }
}

const FROM_REVIEW: Record<string, ApprovalDecision> = {
  approved: "accept",
  approved_for_session: "acceptForSession",
  approved_mcp_policy_amendment: "acceptForSession",
  approved_execpolicy_amendment: "acceptForSession",
  network_policy_amendment: "accept",
  denied: "decline",
  timed_out: "cancel",
  abort: "cancel",
};

const FROM_V2: Record<string, ApprovalDecision> = {
  accept: "accept",
  acceptForSession: "acceptForSession",
  acceptWithExecpolicyAmendment: "acceptForSession",
  applyNetworkPolicyAmendment: "accept",
  decline: "decline",
  cancel: "cancel",
};

/** A decision value (string or single-key object) through a lookup table. */
function lookup(value: unknown, table: Record<string, ApprovalDecision>): ApprovalDecision | undefined {
  if (typeof value === "string") return own(table, value);
  if (isObject(value)) return own(table, Object.keys(value)[0]);
  return undefined;
}

/** The canonical decision of a recorded reply (`result` or `error`) to a server request of `method`. */
export function decisionOfReply(method: string, reply: JsonObject): ApprovalDecision {
  if (reply.error !== undefined || !isObject(reply.result)) return "decline";
  const result = reply.result;
  switch (method) {
    case "item/commandExecution/requestApproval":
    case "item/fileChange/requestApproval":
      return lookup(result.decision, FROM_V2) ?? "decline";
    case "applyPatchApproval":
    case "execCommandApproval":
      return lookup(result.decision, FROM_REVIEW) ?? "decline";
    case "item/permissions/requestApproval": {
      const granted =
        isObject(result.permissions) && Object.values(result.permissions).some((v) => v != null);
      if (!granted) return "decline";
      return str(result.scope) === "session" ? "acceptForSession" : "accept";
    }
    case "item/tool/requestUserInput":
      return isObject(result.answers) && Object.keys(result.answers).length > 0 ? "accept" : "cancel";
    case "mcpServer/elicitation/request":
      return lookup(result.action, FROM_V2) ?? "decline";
    case "item/tool/call":
      return result.success === false ? "decline" : "accept";
    default:
      return "accept";
  }
}
