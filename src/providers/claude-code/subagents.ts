/**
 * Which Agent/Task tool call a subagent record belongs to. Subagents write `isSidechain: true` records (2.1.x in
 * `<session>/subagents/agent-<agentId>.jsonl`, each record naming its `agentId`; older versions in the session
 * file itself). The link to the spawning call is taken, in this order, from:
 *   1. an `agent_progress` record of the main chain (`data.agentId` with `parentToolUseID`), once seen;
 *   2. the record's parent in the sidechain (`parentUuid`), once that one was linked;
 *   3. the subagent's first prompt: the open Agent/Task call whose `input.prompt` is that text.
 * A sidechain record none of these link still maps, without a `parentItemId`.
 */
import { arr, asObject, isObject, type JsonObject, str } from "../../kit/guards.js";
import type { ClaudeState } from "../claude/state.js";
import { outputText } from "../claude/tool-items.js";
import { agentIdOf, isSidechain, type SessionFileState } from "./context.js";

export function linkAgent(file: SessionFileState, agentId: string, toolUseId: string): void {
  file.agentTools.set(agentId, toolUseId);
}

/** The tool_use id of the call that spawned this sidechain record; undefined for main-chain records. */
export function spawningToolOf(
  record: JsonObject,
  state: ClaudeState,
  file: SessionFileState,
): string | undefined {
  if (!isSidechain(record)) return undefined;
  const agentId = agentIdOf(record);
  const parentUuid = str(record.parentUuid);
  let toolUseId = agentId === undefined ? undefined : file.agentTools.get(agentId);
  if (toolUseId === undefined && parentUuid !== undefined) toolUseId = file.sidechainTools.get(parentUuid);
  if (toolUseId === undefined) toolUseId = callWithPrompt(record, state, file);
  if (toolUseId === undefined) return undefined;
  if (agentId !== undefined) file.agentTools.set(agentId, toolUseId);
  else {
    const uuid = str(record.uuid);
    if (uuid !== undefined) file.sidechainTools.set(uuid, toolUseId);
  }
  return toolUseId;
}

/** The open Agent/Task call not yet linked to a subagent whose prompt is this user record's text. */
function callWithPrompt(record: JsonObject, state: ClaudeState, file: SessionFileState): string | undefined {
  if (record.type !== "user") return undefined;
  const content = asObject(record.message)?.content;
  if (typeof content !== "string" && arr(content) === undefined) return undefined;
  const text = outputText(content);
  if (text.length === 0) return undefined;
  const linked = new Set(file.agentTools.values());
  for (const entry of state.tools.openEntries()) {
    const tool = entry.state;
    if (tool.itemType !== "collab_agent_tool_call") continue;
    const toolUseId = entry.nativeKey.slice("tool:".length);
    const input = isObject(tool.input) ? tool.input : undefined;
    if (!linked.has(toolUseId) && str(input?.prompt) === text) return toolUseId;
  }
  return undefined;
}
