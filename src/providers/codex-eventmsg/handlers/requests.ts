import type { CanonicalRequestType } from "../../../contracts/enums.js";
import type { RuntimeEvent } from "../../../contracts/events.js";
import { arr } from "../../../kit/guards.js";
import type { EventMsgCore } from "../core.js";
import { dynamicToolPatch } from "../details.js";
import { callIdOf, commandText, pick, pickId, pickStr, withoutType } from "../fields.js";
import type { EventMsgHandler, EventMsgTable, MsgContext } from "./table.js";

/**
 * Requests the agent asks of the user. The EventMsg stream shows the question but not the answer: a request is
 * resolved when the stream shows its effect (the command or patch begins: accept; the call ends declined:
 * decline; a dynamic tool call's response), otherwise at the end of its turn with no decision and
 * `resolution.inferredFrom = "turn end"` — never left open.
 */
export function requestKey(core: EventMsgCore, kind: string, callId: string): string {
  return `${kind}:${core.itemKey(callId)}`;
}

export const requestHandlers: EventMsgTable = {
  exec_approval_request: approval("exec", "exec_command_approval", (ctx) => commandText(ctx.p.command)),
  apply_patch_approval_request: approval("patch", "apply_patch_approval", (ctx) => pickStr(ctx.p, "reason")),
  request_permissions: approval("permissions", "permissions_approval", (ctx) => pickStr(ctx.p, "reason")),
  request_user_input: {
    yields: ["request.opened", "user-input.requested"],
    note: "tool_user_input; resolved (answers null) at turn end",
    handle: (ctx) => {
      const { core, p, raw } = ctx;
      const callId = callIdOf(p) ?? "user_input";
      const questions = pick(p, "questions") ?? [];
      return core.openRequest(
        requestKey(core, "user_input", callId),
        callId,
        "tool_user_input",
        raw,
        { args: withoutType(p) },
        questions,
      );
    },
  },
  elicitation_request: {
    yields: ["request.opened"],
    note: "mcp_elicitation keyed by server + request id; resolved at turn end",
    handle: ({ core, p, raw }) => {
      const server = pickStr(p, "server_name", "serverName") ?? "";
      const id = pickId(p, "id", "request_id", "requestId") ?? "elicitation";
      const message =
        pickStr(p, "message") ?? pickStr((pick(p, "request") ?? {}) as Record<string, unknown>, "message");
      return core.openRequest(requestKey(core, `elicitation:${server}`, id), id, "mcp_elicitation", raw, {
        ...(message === undefined ? {} : { detail: message }),
        args: withoutType(p),
      });
    },
  },
  dynamic_tool_call_request: {
    yields: ["request.opened", "item.started"],
    note: "dynamic_tool_call request and its dynamic_tool_call item",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "dynamic_tool";
      const tool = pickStr(p, "tool", "name");
      const args = withoutType(p);
      const events = core.openRequest(requestKey(core, "dynamic", callId), callId, "dynamic_tool_call", raw, {
        ...(tool === undefined ? {} : { detail: tool }),
        args,
      });
      const fields = {
        ...(tool === undefined ? {} : { title: tool }),
        details: dynamicToolPatch(p),
        data: args,
      };
      events.push(...core.startItem(core.itemKey(callId), "dynamic_tool_call", raw, fields, callId));
      return events;
    },
  },
  dynamic_tool_call_response: {
    yields: ["request.resolved", "item.completed"],
    note: "resolution = the tool's result; the item fails when success is false",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "dynamic_tool";
      const success = p.success !== false;
      const resolution = {
        success,
        contentItems: arr(pick(p, "content_items", "contentItems")) ?? [],
        error: pick(p, "error"),
      };
      const events = core.resolveRequest(requestKey(core, "dynamic", callId), raw, {
        decision: success ? "accept" : "decline",
        resolution,
      });
      events.push(
        ...core.completeItem(
          core.itemKey(callId),
          "dynamic_tool_call",
          raw,
          { status: success ? "completed" : "failed", details: dynamicToolPatch(p), data: withoutType(p) },
          undefined,
          callId,
        ),
      );
      return events;
    },
  },
};

function approval(
  kind: string,
  requestType: CanonicalRequestType,
  detailOf: (ctx: MsgContext) => string | undefined,
): EventMsgHandler {
  return {
    yields: ["request.opened"],
    note: `${requestType}; resolved by the call's begin/end or at turn end`,
    handle: (ctx): RuntimeEvent[] => {
      const { core, p, raw } = ctx;
      const callId = callIdOf(p) ?? kind;
      const nativeId = pickId(p, "approval_id", "approvalId") ?? callId;
      const detail = detailOf(ctx);
      const options = arr(pick(p, "available_decisions", "availableDecisions"));
      return core.openRequest(requestKey(core, kind, callId), nativeId, requestType, raw, {
        ...(detail === undefined ? {} : { detail }),
        args: withoutType(p),
        ...(options === undefined ? {} : { options }),
      });
    },
  };
}
