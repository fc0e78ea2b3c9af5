import type { CanonicalItemType } from "../../../contracts/enums.js";
import type { RuntimeEvent } from "../../../contracts/events.js";
import { asObject, type JsonObject, str } from "../../../kit/guards.js";
import {
  commandPatch,
  type DetailsPatch,
  fileChangesPatch,
  imagePatch,
  mcpPatch,
  webSearchPatch,
} from "../details.js";
import { callIdOf, decodeChunk, pick, pickObj, pickStr, withoutType } from "../fields.js";
import { requestKey } from "./requests.js";
import type { EventMsgHandler, EventMsgTable, MsgContext } from "./table.js";
import { statusOf } from "./turn-items.js";

/** Tool calls as begin/progress/end triples, keyed by `call_id`: commands, patches, MCP, web search, images. */
export const toolHandlers: EventMsgTable = {
  exec_command_begin: {
    yields: ["item.started", "request.resolved"],
    note: "command_execution (details: unwrapped command, cwd); resolves a pending exec approval of the call as accept",
    handle: (ctx) => {
      const { core, p, raw } = ctx;
      const callId = callIdOf(p) ?? "exec";
      const events = core.resolveRequest(requestKey(core, "exec", callId), raw, {
        decision: "accept",
        resolution: { inferredFrom: "exec_command_begin" },
      });
      const fields = { details: commandPatch(p), data: withoutType(p) };
      events.push(...core.startItem(core.itemKey(callId), "command_execution", raw, fields, callId));
      return events;
    },
  },
  exec_command_output_delta: {
    yields: ["content.delta"],
    note: "command_output; the base64 chunk decoded as UTF-8",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "exec";
      const text = decodeChunk(p.chunk) ?? pickStr(p, "delta") ?? "";
      return core.delta(core.itemKey(callId), "command_execution", "command_output", text, raw, {}, callId);
    },
  },
  terminal_interaction: {
    yields: ["item.updated"],
    note: "stdin sent to the running command",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "exec";
      return core.updateItem(core.itemKey(callId), "command_execution", raw, {
        data: { stdin: pick(p, "stdin"), processId: pick(p, "process_id", "processId") },
      });
    },
  },
  exec_command_end: {
    yields: ["item.completed", "content.delta", "request.resolved"],
    note: "details add exit code and duration; aggregated output becomes one delta when none streamed; a declined call resolves its approval",
    handle: (ctx) => {
      const { core, p, raw } = ctx;
      const callId = callIdOf(p) ?? "exec";
      const status = statusOf(p);
      const events = core.resolveRequest(requestKey(core, "exec", callId), raw, {
        decision: status === "declined" ? "decline" : "accept",
        resolution: { inferredFrom: "exec_command_end" },
      });
      const output = pickStr(p, "aggregated_output", "aggregatedOutput") ?? joinStreams(p.stdout, p.stderr);
      events.push(
        ...core.completeItem(
          core.itemKey(callId),
          "command_execution",
          raw,
          { status, details: commandPatch(p), data: withoutType(p) },
          { streamKind: "command_output", text: output },
          callId,
        ),
      );
      return events;
    },
  },
  patch_apply_begin: {
    yields: ["item.started", "request.resolved"],
    note: "file_change, details from the changes map (item.updated when the call was already announced); resolves a pending patch approval",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "patch";
      const events = core.resolveRequest(requestKey(core, "patch", callId), raw, {
        decision: "accept",
        resolution: { inferredFrom: "patch_apply_begin", autoApproved: pick(p, "auto_approved") },
      });
      const fields = { details: fileChangesPatch(p.changes), data: withoutType(p) };
      events.push(...core.startItem(core.itemKey(callId), "file_change", raw, fields, callId));
      return events;
    },
  },
  patch_apply_end: {
    yields: ["item.completed", "content.delta"],
    note: "stdout/stderr of apply_patch as file_change_output",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "patch";
      const events = core.resolveRequest(requestKey(core, "patch", callId), raw, {
        decision: p.success === false ? "decline" : "accept",
        resolution: { inferredFrom: "patch_apply_end" },
      });
      events.push(
        ...core.completeItem(
          core.itemKey(callId),
          "file_change",
          raw,
          { status: statusOf(p), details: fileChangesPatch(p.changes), data: withoutType(p) },
          { streamKind: "file_change_output", text: joinStreams(p.stdout, p.stderr) },
          callId,
        ),
      );
      return events;
    },
  },
  mcp_tool_call_begin: {
    yields: ["item.started"],
    note: "mcp_tool_call titled server/tool",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "mcp";
      const invocation = pickObj(p, "invocation") ?? {};
      const title = [str(invocation.server), str(invocation.tool)].filter(Boolean).join("/");
      const fields = { ...(title.length > 0 ? { title } : {}), details: mcpPatch(p), data: withoutType(p) };
      return core.startItem(core.itemKey(callId), "mcp_tool_call", raw, fields, callId);
    },
  },
  mcp_tool_call_end: {
    yields: ["item.completed"],
    note: "failed when result is Err or is_error; details: result = Ok, error = Err",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "mcp";
      const result = asObject(p.result);
      const failed = result !== undefined && ("Err" in result || asObject(result.Ok)?.is_error === true);
      return core.completeItem(
        core.itemKey(callId),
        "mcp_tool_call",
        raw,
        { status: failed ? "failed" : "completed", details: mcpPatch(p), data: withoutType(p) },
        undefined,
        callId,
      );
    },
  },
  web_search_begin: begin("web_search", undefined, webSearchPatch),
  web_search_end: end("web_search", "query", webSearchPatch),
  image_generation_begin: begin(
    "unknown",
    "image_generation: no canonical item type fits; title says what it is",
  ),
  image_generation_end: end("unknown"),
  view_image_tool_call: {
    yields: ["item.started", "item.completed"],
    note: "image_view, started and completed at once",
    handle: ({ core, p, raw }) => {
      const callId = callIdOf(p) ?? "view_image";
      const path = pickStr(p, "path");
      const fields = {
        ...(path === undefined ? {} : { detail: path }),
        details: imagePatch(p),
        data: withoutType(p),
      };
      return core.completeItem(
        core.itemKey(callId),
        "image_view",
        raw,
        { status: "completed", ...fields },
        undefined,
        callId,
      );
    },
  },
};

type PatchOf = (p: JsonObject) => DetailsPatch;

function begin(itemType: CanonicalItemType, note?: string, patchOf?: PatchOf): EventMsgHandler {
  const kindTitle = itemType === "unknown" ? "image_generation" : undefined;
  return {
    yields: ["item.started"],
    ...(note === undefined ? {} : { note }),
    handle: ({ core, p, raw }: MsgContext): RuntimeEvent[] => {
      const callId = callIdOf(p) ?? itemType;
      const fields = {
        ...(kindTitle === undefined ? {} : { title: kindTitle }),
        details: patchOf?.(p),
        data: withoutType(p),
      };
      return core.startItem(core.itemKey(callId), itemType, raw, fields, callId);
    },
  };
}

function end(itemType: CanonicalItemType, detailField?: string, patchOf?: PatchOf): EventMsgHandler {
  const kindTitle = itemType === "unknown" ? "image_generation" : undefined;
  return {
    yields: ["item.completed"],
    handle: ({ core, p, raw }: MsgContext): RuntimeEvent[] => {
      const callId = callIdOf(p) ?? itemType;
      const detail = detailField === undefined ? undefined : pickStr(p, detailField);
      const fields = {
        status: statusOf(p),
        ...(kindTitle === undefined ? {} : { title: kindTitle }),
        ...(detail === undefined ? {} : { detail }),
        details: patchOf?.(p),
        data: withoutType(p),
      };
      return core.completeItem(core.itemKey(callId), itemType, raw, fields, undefined, callId);
    },
  };
}

function joinStreams(stdout: unknown, stderr: unknown): string {
  return [str(stdout), str(stderr)].filter((part) => part !== undefined && part.length > 0).join("");
}
