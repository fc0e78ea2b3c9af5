import type { RuntimeEventRaw } from "../../contracts/envelope.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import type { EventBuilder } from "../../kit/event-builder.js";
import { arr, isObject, type JsonObject, str } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import { itemPayload } from "../../kit/item-payload.js";
import { providerEvent } from "../../kit/warnings.js";
import type { AcpSessionState, SubagentState } from "./session-state.js";

/**
 * ACP's subagent sessions (unstable schema, sent to clients that declare `subagents`): `subagent_update` announces
 * a child session and its state, `session_message` carries the task to it and its reply back, and the child's own
 * updates arrive with its sessionId. One subagent is one `collab_agent_tool_call` item (the call that started it)
 * and one `subagent` task; the child's items and the task link to that item by `parentItemId`.
 */

const keyOf = (childSessionId: string) => `subagent:${childSessionId}`;

/** The text of a message's content: one block or a list of them. */
export function contentText(content: unknown): string {
  const blocks = arr(content) ?? [content];
  return blocks
    .map((block) => (isObject(block) ? (str(block.text) ?? "") : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

/** `state` is `{state: "running" | "idle" | …, stopReason?}` in the adapters; a bare string is read as well. */
function stateOf(update: JsonObject): { name: string | undefined; stopReason: string | undefined } {
  if (isObject(update.state))
    return { name: str(update.state.state), stopReason: str(update.state.stopReason) };
  return { name: str(update.state), stopReason: undefined };
}

function spawnerPayload(sub: SubagentState, status: "inProgress" | "completed" | "failed", extra = {}) {
  return itemPayload("collab_agent_tool_call", {
    status,
    title: sub.description,
    details: {
      description: sub.description,
      ...(sub.agentType === undefined ? {} : { agentType: sub.agentType }),
      ...(sub.prompt === undefined ? {} : { prompt: sub.prompt }),
    },
    ...extra,
  });
}

/** `subagent_update`: the first one starts the item and the task; `idle` completes the task; others are progress. */
export function mapSubagentUpdate(
  state: AcpSessionState,
  b: EventBuilder,
  update: JsonObject,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const childSessionId = str(update.sessionId);
  if (childSessionId === undefined) {
    return [
      providerEvent(b, "subagent_update", raw, "subagent_update without sessionId", state.context(raw)),
    ];
  }
  const key = keyOf(childSessionId);
  const known = state.subagents.get(key);
  const { name, stopReason } = stateOf(update);
  const events: RuntimeEvent[] = [];
  let sub: SubagentState;
  let itemId: string;
  if (known === undefined) {
    if (state.childSessions.has(childSessionId)) {
      return [
        providerEvent(
          b,
          "subagent_update",
          raw,
          `subagent ${name ?? "update"} after it ended`,
          state.context(raw),
        ),
      ];
    }
    // claude-agent-acp: title = the model's short description, description = the agent type; codex-acp: no
    // title, description = the task it was given.
    const title = str(update.title);
    const description = title ?? "subagent";
    const opened = state.subagents.open(key, {
      childSessionId,
      turnId: state.currentTurnId,
      taskId: mintId(state.sessionId, "task", key),
      description,
      agentType: title === undefined ? undefined : str(update.description),
      prompt: title === undefined ? str(update.description) : undefined,
      idle: false,
    });
    sub = opened.entry.state;
    itemId = opened.entry.id;
    state.childSessions.set(childSessionId, itemId);
    const context = spawnerContext(state, raw, itemId, sub);
    events.push(...state.closeText(b, raw));
    events.push(b.emit("item.started", spawnerPayload(sub, "inProgress"), context));
    events.push(
      b.emit(
        "task.started",
        { taskId: sub.taskId, description, taskType: "subagent" },
        state.context(raw, { parentItemId: itemId }),
      ),
    );
  } else {
    sub = known.state;
    itemId = known.id;
  }
  const taskContext = state.context(raw, { parentItemId: itemId, turnId: sub.turnId });
  if (name === "idle" || name === "completed" || name === "failed" || name === "cancelled") {
    if (!sub.idle) {
      sub.idle = true;
      events.push(...closeChildText(state, b, itemId, sub, raw));
      const status = name === "failed" ? "failed" : name === "cancelled" ? "stopped" : "completed";
      events.push(
        b.emit(
          "task.completed",
          { taskId: sub.taskId, status, ...(stopReason === undefined ? {} : { summary: stopReason }) },
          taskContext,
        ),
      );
    }
  } else if (known !== undefined) {
    events.push(
      b.emit(
        "task.progress",
        { taskId: sub.taskId, description: `${sub.description}: ${name ?? "update"}` },
        taskContext,
      ),
    );
  }
  return events;
}

/**
 * `session_message` in the main session: the task the agent sends a child (the subagent item's prompt) or the
 * child's reply (which completes the item with it as the result). Anything else is a provider.event.
 */
export function mapSessionMessage(
  state: AcpSessionState,
  b: EventBuilder,
  update: JsonObject,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  const sender = str(update.senderSessionId);
  const recipient = str(update.recipientSessionId);
  const text = contentText(update.content);
  const root = state.providerSessionId;
  const toChild =
    sender === root && recipient !== undefined ? state.subagents.get(keyOf(recipient)) : undefined;
  if (toChild !== undefined && toChild.state.prompt === undefined) {
    toChild.state.prompt = text;
    return [
      b.emit(
        "item.updated",
        spawnerPayload(toChild.state, "inProgress"),
        spawnerContext(state, raw, toChild.id, toChild.state),
      ),
    ];
  }
  const fromChild =
    recipient === root && sender !== undefined ? state.subagents.get(keyOf(sender)) : undefined;
  if (fromChild !== undefined) {
    return completeSubagent(state, b, fromChild.id, fromChild.state, raw, "completed", text);
  }
  return [providerEvent(b, "session_message", raw, text, state.context(raw))];
}

function completeSubagent(
  state: AcpSessionState,
  b: EventBuilder,
  itemId: string,
  sub: SubagentState,
  raw: RuntimeEventRaw,
  status: "completed" | "failed",
  result?: string,
): RuntimeEvent[] {
  state.subagents.close(keyOf(sub.childSessionId));
  const context = spawnerContext(state, raw, itemId, sub);
  const events: RuntimeEvent[] = [];
  if (!sub.idle) {
    sub.idle = true;
    events.push(...closeChildText(state, b, itemId, sub, raw));
    events.push(
      b.emit(
        "task.completed",
        { taskId: sub.taskId, status: status === "failed" ? "stopped" : "completed" },
        state.context(raw, { parentItemId: itemId, turnId: sub.turnId }),
      ),
    );
  }
  const extra =
    result === undefined ? { detail: "the turn ended before the subagent replied" } : { data: { result } };
  events.push(b.emit("item.completed", spawnerPayload(sub, status, extra), context));
  return events;
}

/** Subagents of a turn that never replied end with it: completed when the child was idle, else failed. */
export function endSubagentsOfTurn(
  state: AcpSessionState,
  b: EventBuilder,
  turnId: string,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  return state.subagents
    .openEntries()
    .filter((entry) => entry.state.turnId === turnId)
    .flatMap((entry) =>
      completeSubagent(state, b, entry.id, entry.state, raw, entry.state.idle ? "completed" : "failed"),
    );
}

/** The child's text items end with its work. */
function closeChildText(
  state: AcpSessionState,
  b: EventBuilder,
  itemId: string,
  sub: SubagentState,
  raw: RuntimeEventRaw,
): RuntimeEvent[] {
  return state.inChildSession(sub.childSessionId, itemId, () => state.closeText(b, raw));
}

function spawnerContext(state: AcpSessionState, raw: RuntimeEventRaw, itemId: string, sub: SubagentState) {
  return state.context(raw, {
    itemId,
    turnId: sub.turnId,
    parentItemId: undefined,
    providerRefs: { providerItemId: sub.childSessionId },
  });
}

/** Update kinds of a child session that are items of its own; its other updates are provider.events. */
export const CHILD_ITEM_KINDS: ReadonlySet<string> = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
]);
