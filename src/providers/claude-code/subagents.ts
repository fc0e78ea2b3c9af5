/**
 * Which Agent/Task tool call a subagent record belongs to. Subagents write `isSidechain: true` records (2.1.x in
 * `<session>/subagents/agent-<agentId>.jsonl`, each record naming its `agentId`; older versions in the session
 * file itself). The link to the spawning call is taken, in this order, from:
 *   1. the subagent's `agentId`, once linked: by an `agent_progress` record of the main chain (`data.agentId`
 *      with `parentToolUseID`), by the call's result (`toolUseResult.agentId`, also of a background agent's
 *      launch), or by 3;
 *   2. the record's parent in the sidechain (`parentUuid`), once that one was linked (files without `agentId`);
 *   3. the subagent's first prompt: the Agent/Task call (open or done: a background agent outlives its call's
 *      result) whose `input.prompt` is that text and that no subagent took yet.
 * A sidechain record none of these link still maps, without a `parentItemId`.
 */
import { arr, asObject, idKey, isObject, type JsonObject, str } from "../../kit/guards.js";
import { hash64 } from "../../kit/ids.js";
import { outputText } from "../claude/tool-items.js";
import { agentIdOf, isSidechain, type SessionFileState } from "./context.js";

const AGENT_TOOLS = new Set(["Agent", "Task"]);

export function linkAgent(file: SessionFileState, agentId: string, toolUseId: string): void {
  file.agentTools.set(agentId, toolUseId);
}

/** Remembers the prompt of each Agent/Task call of an assistant record (by its hash: prompts can be long). */
export function noteAgentCalls(record: JsonObject, file: SessionFileState): void {
  if (isSidechain(record)) return;
  for (const block of arr(asObject(record.message)?.content) ?? []) {
    if (!isObject(block) || block.type !== "tool_use" || !AGENT_TOOLS.has(str(block.name) ?? "")) continue;
    const toolUseId = idKey(block.id);
    const prompt = str(asObject(block.input)?.prompt);
    if (toolUseId === undefined || prompt === undefined) continue;
    const key = hash64(prompt);
    file.agentPrompts.set(key, [...(file.agentPrompts.get(key) ?? []), toolUseId]);
  }
}

/** A main-chain tool result naming the agent it ran or launched links that agent to the call. */
export function noteAgentResult(record: JsonObject, toolUseId: string, file: SessionFileState): void {
  const agentId = idKey(asObject(record.toolUseResult)?.agentId);
  if (agentId !== undefined && !isSidechain(record)) linkAgent(file, agentId, toolUseId);
}

/** The tool_use id of the call that spawned this sidechain record; undefined for main-chain records. */
export function spawningToolOf(record: JsonObject, file: SessionFileState): string | undefined {
  if (!isSidechain(record)) return undefined;
  const agentId = agentIdOf(record);
  const parentUuid = str(record.parentUuid);
  let toolUseId = agentId === undefined ? undefined : file.agentTools.get(agentId);
  if (toolUseId === undefined && parentUuid !== undefined) toolUseId = file.sidechainTools.get(parentUuid);
  if (toolUseId === undefined) toolUseId = callWithPrompt(record, file);
  if (toolUseId === undefined) return undefined;
  if (agentId !== undefined) file.agentTools.set(agentId, toolUseId);
  else {
    const uuid = str(record.uuid);
    if (uuid !== undefined) file.sidechainTools.set(uuid, toolUseId);
  }
  return toolUseId;
}

/** The first Agent/Task call with this user record's text as its prompt that no subagent took yet. */
function callWithPrompt(record: JsonObject, file: SessionFileState): string | undefined {
  if (record.type !== "user") return undefined;
  const content = asObject(record.message)?.content;
  if (typeof content !== "string" && arr(content) === undefined) return undefined;
  const key = hash64(outputText(content));
  const calls = file.agentPrompts.get(key);
  const toolUseId = calls?.[0];
  if (calls === undefined || toolUseId === undefined) return undefined;
  if (calls.length > 1) file.agentPrompts.set(key, calls.slice(1));
  else file.agentPrompts.release(key);
  return toolUseId;
}
