/**
 * The turn's plan, kept from Claude's plan tools when they succeed: `TodoWrite` replaces the whole list;
 * Claude Code 2.1's `TaskCreate` adds a step and `TaskUpdate` changes one. Each change → `turn.plan.updated`.
 */
import type { PlanStepStatus } from "../../contracts/enums.js";
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, idKey, isObject, str } from "../../kit/guards.js";
import { type ClaudeContext, emit } from "./context.js";
import type { PlanEntry, ToolState } from "./state.js";

export function planUpdateFor(ctx: ClaudeContext, tool: ToolState, toolUseResult: unknown): RuntimeEvent[] {
  const input = asObject(tool.input) ?? {};
  const { state } = ctx;
  switch (tool.toolName) {
    case "TodoWrite": {
      const todos = arr(input.todos) ?? [];
      state.plan = todos.filter(isObject).map((todo, index) => ({
        id: String(index),
        step: str(todo.content) ?? "",
        status: stepStatus(todo.status),
      }));
      break;
    }
    case "TaskCreate": {
      const task = asObject(asObject(toolUseResult)?.task);
      const id = idKey(task?.id) ?? String(state.plan.length + 1);
      state.plan = [
        ...state.plan,
        { id, step: str(input.subject) ?? str(task?.subject) ?? "", status: "pending" },
      ];
      break;
    }
    case "TaskUpdate": {
      const id = idKey(input.taskId);
      if (id === undefined) return [];
      if (input.status === "deleted") state.plan = state.plan.filter((entry) => entry.id !== id);
      else state.plan = state.plan.map((entry) => (entry.id === id ? updated(entry, input) : entry));
      break;
    }
    default:
      return [];
  }
  return [emit(ctx, "turn.plan.updated", { plan: state.plan.map(({ step, status }) => ({ step, status })) })];
}

function updated(entry: PlanEntry, input: Record<string, unknown>): PlanEntry {
  return {
    id: entry.id,
    step: str(input.subject) ?? entry.step,
    status: input.status === undefined ? entry.status : stepStatus(input.status),
  };
}

function stepStatus(value: unknown): PlanStepStatus {
  if (value === "in_progress") return "inProgress";
  if (value === "completed") return "completed";
  return "pending";
}
