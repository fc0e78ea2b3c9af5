import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, isObject, str } from "../../kit/guards.js";
import { providerEvent } from "../../kit/warnings.js";
import type { ClientMethodHandler, ClientMethodInput } from "./client-methods.js";
import { planSteps } from "./session-updates.js";
import { toolItemIdOf } from "./tool-calls.js";

/**
 * Cursor's `cursor/*` extension methods (agent → client). Their shapes are documented by Cursor but could not be
 * observed here (the Cursor CLI cannot be installed offline), so each handler reads fields defensively and keeps
 * the whole message in raw. Requests open a canonical request like the v1 client methods do.
 */
function todosPlan({ state, b, params, raw }: ClientMethodInput): RuntimeEvent[] {
  const todos = arr(params.todos) ?? arr(params.entries) ?? arr(params.items) ?? [];
  return [b.emit("turn.plan.updated", { plan: planSteps(todos) }, state.context(raw))];
}

function task({ state, b, params, raw }: ClientMethodInput): RuntimeEvent[] {
  const key = `cursor-task:${str(params.taskId) ?? str(params.toolCallId) ?? str(params.description) ?? ""}`;
  const parentItemId = toolItemIdOf(state, str(params.toolCallId));
  const context = state.context(raw, { parentItemId });
  const { entry, isNew } = state.tasks.open(key, undefined);
  const description = str(params.description) ?? str(params.prompt) ?? "subagent task";
  const events: RuntimeEvent[] = [];
  if (isNew)
    events.push(b.emit("task.started", { taskId: entry.id, description, taskType: "subagent" }, context));
  if (params.result !== undefined) {
    state.tasks.close(key);
    const summary = str(params.result) ?? (isObject(params.result) ? str(params.result.summary) : undefined);
    events.push(
      b.emit(
        "task.completed",
        { taskId: entry.id, status: "completed", ...(summary === undefined ? {} : { summary }) },
        context,
      ),
    );
  } else if (!isNew) {
    events.push(b.emit("task.progress", { taskId: entry.id, description }, context));
  }
  return events;
}

export const CURSOR_EXTENSION_HANDLERS: Record<string, ClientMethodHandler> = {
  "cursor/ask_question": {
    yields: ["request.opened", "user-input.requested", "user-input.resolved", "request.resolved"],
    note: "multiple-choice questions → user input",
    requestType: () => "tool_user_input",
    asksUser: true,
    detail: (params) => str(params.title) ?? str(params.question),
  },
  "cursor/create_plan": {
    yields: ["turn.plan.updated", "request.opened", "user-input.requested", "request.resolved"],
    note: "a plan to accept/reject: the plan, and a user-input request for the verdict",
    requestType: () => "tool_user_input",
    asksUser: true,
    detail: (params) => str(params.title) ?? "plan approval",
    events: (input) => {
      const plan = isObject(input.params.plan) ? input.params.plan : input.params;
      const explanation = str(plan.markdown) ?? str(plan.content) ?? str(input.params.plan) ?? null;
      return [
        input.b.emit(
          "turn.plan.updated",
          { plan: planSteps(plan.todos ?? plan.steps ?? plan.items), explanation },
          input.state.context(input.raw),
        ),
      ];
    },
  },
  "cursor/update_todos": {
    yields: ["turn.plan.updated"],
    note: "todos → plan steps (as a request it is also opened and resolved)",
    requestType: () => "client_capability",
    events: todosPlan,
  },
  "cursor/task": {
    yields: ["task.started", "task.progress", "task.completed"],
    note: "subagent task linked to its tool item by parentItemId",
    requestType: () => "client_capability",
    events: task,
  },
  "cursor/generate_image": {
    yields: ["provider.event"],
    requestType: () => "client_capability",
    events: ({ state, b, params, raw }) => [
      providerEvent(b, "cursor/generate_image", raw, str(params.description), state.context(raw)),
    ],
  },
};
