import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";

/** For tests and the record script: the ACP fixtures, replayed the way `normalize` does. */
export const ACP_FIXTURE_DIR = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "acp");

export function acpFixtureNames(): string[] {
  return readdirSync(ACP_FIXTURE_DIR)
    .filter((name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl"))
    .sort();
}

export function readFixtureLines(name: string): string[] {
  return readFileSync(join(ACP_FIXTURE_DIR, name), "utf8").split("\n");
}

/** Cursor-shaped fixtures (hand-written) replay through the cursor profile, the rest through the generic one. */
export function isCursorFixture(name: string): boolean {
  return name.startsWith("cursor-");
}

/** The wire messages of a transcript (any accepted format), with their direction. */
export function wireMessages(lines: readonly string[]): { inbound: boolean; msg: Record<string, unknown> }[] {
  const out: { inbound: boolean; msg: Record<string, unknown> }[] = [];
  for (const [index, line] of lines.entries()) {
    const entry = parseTranscriptLine(line, index + 1);
    if (entry?.kind !== "message" || typeof entry.msg !== "object" || entry.msg === null) continue;
    const msg = entry.msg as Record<string, unknown>;
    if (msg.jsonrpc === undefined && msg.method === undefined && msg.id === undefined) continue;
    out.push({ inbound: entry.dir === "in", msg });
  }
  return out;
}

/**
 * The ACP semantic rules of the acceptance check (stream-check `acp`), reimplemented: one tool item per distinct
 * toolCallId, every permission request opened and resolved, a turn.completed per answered prompt, assistant and
 * reasoning text equal to the native chunks, raw on at least as many events as inbound messages, no native
 * toolCallId as canonical itemId. Returns the problems found (empty: the stream holds).
 */
export function acpSemanticProblems(lines: readonly string[], events: readonly RuntimeEvent[]): string[] {
  const wire = wireMessages(lines);
  const problems: string[] = [];
  const updates = wire
    .filter((w) => w.inbound && w.msg.method === "session/update")
    .map(
      (w) => ((w.msg.params as Record<string, unknown> | undefined)?.update ?? {}) as Record<string, unknown>,
    );
  const toolIds = new Set(
    updates
      .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")
      .map((u) => u.toolCallId),
  );
  const completedTools = new Set(
    updates
      .filter(
        (u) => u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"),
      )
      .map((u) => u.toolCallId),
  );
  const textTypes = new Set(["assistant_message", "reasoning", "user_message"]);
  const toolEvents = (type: string) =>
    events.filter((e) => e.type === type && "itemType" in e.payload && !textTypes.has(e.payload.itemType));
  // each subagent (child session) is one collab_agent_tool_call item beside the tool calls
  const subagents = new Set(
    updates.filter((u) => u.sessionUpdate === "subagent_update").map((u) => u.sessionId),
  );
  if (toolEvents("item.started").length !== toolIds.size + subagents.size) {
    problems.push(
      `tool items started ${toolEvents("item.started").length} != tool calls ${toolIds.size} + subagents ${subagents.size}`,
    );
  }
  if (toolEvents("item.completed").length < completedTools.size + subagents.size) {
    problems.push(`tool items completed ${toolEvents("item.completed").length} < ${completedTools.size}`);
  }
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const permissions = wire.filter((w) => w.inbound && w.msg.method === "session/request_permission").length;
  // Permission requests only: Cursor's extension requests (hand-written fixture) open requests of their own.
  const permissionIds = new Set(
    events
      .filter((e) => e.type === "request.opened" && e.raw?.method === "session/request_permission")
      .map((e) => e.requestId),
  );
  const resolved = events.filter(
    (e) => e.type === "request.resolved" && permissionIds.has(e.requestId),
  ).length;
  if (permissionIds.size !== permissions)
    problems.push(`permission requests opened ${permissionIds.size} != ${permissions}`);
  if (resolved !== permissions) problems.push(`permission requests resolved ${resolved} != ${permissions}`);
  const prompts = new Set(
    wire.filter((w) => !w.inbound && w.msg.method === "session/prompt").map((w) => w.msg.id),
  );
  const answered = wire.filter(
    (w) => w.inbound && prompts.has(w.msg.id) && (w.msg.result ?? w.msg.error),
  ).length;
  if (count("turn.completed") < answered)
    problems.push(`turn.completed ${count("turn.completed")} < answered ${answered}`);
  const chunks = (kind: string) =>
    answerUpdates(updates)
      .filter((u) => u.sessionUpdate === kind)
      .map((u) => ((u.content as Record<string, unknown> | undefined)?.text as string | undefined) ?? "")
      .join("");
  const deltas = (streamKind: string) =>
    events
      .filter((e) => e.type === "content.delta" && e.payload.streamKind === streamKind)
      .map((e) => (e.type === "content.delta" ? e.payload.delta : ""))
      .join("");
  if (chunks("agent_message_chunk") !== deltas("assistant_text")) problems.push("assistant text differs");
  if (chunks("agent_thought_chunk") !== deltas("reasoning_text")) problems.push("reasoning text differs");
  const inbound = wire.filter((w) => w.inbound).length;
  const withRaw = events.filter((e) => e.raw !== undefined).length;
  if (withRaw < inbound) problems.push(`events with raw ${withRaw} < inbound ${inbound}`);
  if (events.some((e) => e.itemId !== undefined && toolIds.has(e.itemId)))
    problems.push("native toolCallId used as itemId");
  return problems;
}

/**
 * The updates that carry the agent's answer: without claude-agent-acp's informational notices
 * (`_meta.claudeCode.kind: "informational"`) and without codex-acp's error text (chunks without messageId after
 * a `systemError` thread status, up to the next prompt's first update).
 */
function answerUpdates(updates: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  let systemError = false;
  return updates.filter((u) => {
    const meta = (u._meta ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const status = (meta.codex?.threadStatus ?? {}) as Record<string, unknown>;
    if (u.sessionUpdate === "session_info_update" && status.type !== undefined) {
      systemError = status.type === "systemError" || (systemError && status.type !== "active");
      return true;
    }
    if (meta.claudeCode?.kind === "informational") return false;
    return !(systemError && u.sessionUpdate === "agent_message_chunk" && u.messageId === undefined);
  });
}
