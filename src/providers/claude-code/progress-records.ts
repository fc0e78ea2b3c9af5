/**
 * `progress` records (Claude Code 2.0–2.1.x), by `data.type`: a hook that runs (`hook_progress`, one record per
 * hook command), a running shell or MCP tool, a subagent's progress (which links the subagent to the tool call
 * that spawned it), and search notes. `parentToolUseID` names the tool call the progress belongs to.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { asObject, idKey, num, own, str } from "../../kit/guards.js";
import { emit } from "../claude/context.js";
import { toolProgress as toolProgressEvent } from "../claude/tool-items.js";
import type { SessionFileContext, SessionFileHandler } from "./context.js";
import { PROGRESS_TYPES } from "./record-kinds.js";
import { linkAgent } from "./subagents.js";
import { unknownKindOnce } from "./unknown-kinds.js";

const KNOWN = new Set<string>(PROGRESS_TYPES);

const toolProgress =
  (toolName: string | undefined): SessionFileHandler =>
  (ctx) => {
    const data = asObject(ctx.record.data) ?? {};
    return [
      toolProgressEvent(ctx, {
        toolUseId: str(ctx.record.parentToolUseID) ?? str(ctx.record.toolUseID),
        toolName: toolName ?? str(data.toolName),
        elapsedSeconds: num(data.elapsedTimeSeconds),
      }),
    ];
  };

const HANDLERS: Record<string, SessionFileHandler> = {
  hook_progress: (ctx) => {
    const data = asObject(ctx.record.data) ?? {};
    return [
      emit(ctx, "hook.started", {
        hookId: str(ctx.record.uuid) ?? str(ctx.record.toolUseID) ?? "hook",
        hookName: str(data.hookName) ?? "",
        hookEvent: str(data.hookEvent) ?? "",
      }),
    ];
  },
  bash_progress: toolProgress("Bash"),
  powershell_progress: toolProgress("PowerShell"),
  mcp_progress: toolProgress(undefined),
  agent_progress: (ctx) => {
    const agentId = idKey(asObject(ctx.record.data)?.agentId);
    const toolUseId = str(ctx.record.parentToolUseID);
    if (agentId !== undefined && toolUseId !== undefined) linkAgent(ctx.file, agentId, toolUseId);
    return [
      emit(ctx, "provider.event", {
        name: "progress:agent_progress",
        ...(agentId === undefined ? {} : { summary: `subagent ${agentId}` }),
      }),
    ];
  },
};

export function mapProgressRecord(ctx: SessionFileContext): RuntimeEvent[] {
  const type = str(asObject(ctx.record.data)?.type) ?? "(none)";
  const handler = own(HANDLERS, type);
  if (handler !== undefined) return handler(ctx);
  const kind = `progress:${type}`;
  if (KNOWN.has(type)) return [emit(ctx, "provider.event", { name: kind })];
  return unknownKindOnce(ctx, kind);
}

export const PROGRESS_YIELDS = [
  "hook.started",
  "tool.progress",
  "provider.event",
  "runtime.warning",
] as const;
