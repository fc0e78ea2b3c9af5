/**
 * `system:*` messages and the other telemetry types (hooks, tasks, tool progress, auth, rate limits, ...).
 * Each handler turns one message into the canonical family §4.1 names, or the nearest one for subtypes newer
 * than the spec; a known message that no family fits is a `provider.event`, never a warning.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, bool, isObject, num, str } from "../../kit/guards.js";
import { mintId } from "../../kit/ids.js";
import { type ClaudeContext, type ClaudeHandler, emit, toolItemId } from "./context.js";
import { toolProgress } from "./tool-items.js";

/** Session-level events are not part of the turn that happens to be open. */
const NO_TURN = { turnId: undefined };

/**
 * `session.started` (once) and `thread.started` (once per Claude session id), as soon as a record names the
 * session: the driver names it in the host's first prompt, so the turn that prompt opens already has its thread.
 */
export function openSessionAndThread(ctx: ClaudeContext): RuntimeEvent[] {
  const { msg, state } = ctx;
  const events: RuntimeEvent[] = [];
  const sessionKey = state.providerSessionId;
  if (!state.sessionStarted) {
    state.sessionStarted = true;
    const version = msg.type === "system" ? str(msg.claude_code_version) : undefined;
    events.push(emit(ctx, "session.started", { message: `Claude Code ${version ?? ""}`.trim() }, NO_TURN));
  }
  if (sessionKey !== undefined && !state.startedThreads.has(sessionKey)) {
    state.startedThreads.set(sessionKey, true);
    events.push(
      emit(
        ctx,
        "thread.started",
        { providerThreadId: sessionKey },
        { ...NO_TURN, providerRefs: { providerSessionId: sessionKey } },
      ),
    );
  }
  return events;
}

export const mapInit: ClaudeHandler = (ctx) => {
  const { msg } = ctx;
  const events = openSessionAndThread(ctx);
  const config: Record<string, unknown> = {
    model: msg.model,
    cwd: msg.cwd,
    permissionMode: msg.permissionMode,
    tools: msg.tools,
    mcpServers: msg.mcp_servers,
    slashCommands: msg.slash_commands,
    skills: msg.skills,
    plugins: msg.plugins,
    agents: msg.agents,
    apiKeySource: msg.apiKeySource,
    outputStyle: msg.output_style,
    claudeCodeVersion: msg.claude_code_version,
  };
  for (const key of Object.keys(config)) if (config[key] === undefined) delete config[key];
  events.push(emit(ctx, "session.configured", { config }, NO_TURN));
  return events;
};

/** `system:status`: `requesting` / `compacting` → running; null → ready; a compaction result is a thread change. */
export const mapStatus: ClaudeHandler = (ctx) => {
  const { msg } = ctx;
  const status = str(msg.status);
  const events: RuntimeEvent[] = [
    emit(ctx, "session.state.changed", {
      state: status === undefined ? "ready" : "running",
      ...(status === undefined ? {} : { reason: status }),
      ...(str(msg.permissionMode) === undefined
        ? {}
        : { detail: `permissionMode=${str(msg.permissionMode)}` }),
    }),
  ];
  if (msg.compact_result === "failed")
    events.push(
      emit(ctx, "runtime.warning", {
        message: `compaction failed: ${str(msg.compact_error) ?? "unknown error"}`,
      }),
    );
  return events;
};

export const mapSessionStateChanged: ClaudeHandler = (ctx) => {
  const native = str(ctx.msg.state);
  const state = native === "running" ? "running" : native === "requires_action" ? "waiting" : "ready";
  return [emit(ctx, "session.state.changed", { state, ...(native === undefined ? {} : { reason: native }) })];
};

export const mapCompactBoundary: ClaudeHandler = (ctx) => [
  emit(ctx, "thread.state.changed", { state: "compacted", detail: ctx.msg.compact_metadata }),
];

export const mapApiRetry: ClaudeHandler = (ctx) => {
  const { msg } = ctx;
  const status = num(msg.error_status);
  return [
    emit(ctx, "runtime.warning", {
      message: `model API ${status === undefined ? "error" : `error ${status}`} (${str(msg.error) ?? "unknown"}): retry ${num(msg.attempt) ?? "?"} of ${num(msg.max_retries) ?? "?"} in ${num(msg.retry_delay_ms) ?? "?"} ms`,
      detail: {
        reason: "api-retry",
        attempt: msg.attempt,
        maxRetries: msg.max_retries,
        retryDelayMs: msg.retry_delay_ms,
        errorStatus: msg.error_status,
        error: msg.error,
      },
    }),
  ];
};

export const mapHookStarted: ClaudeHandler = (ctx) => [
  emit(ctx, "hook.started", {
    hookId: str(ctx.msg.hook_id) ?? "",
    hookName: str(ctx.msg.hook_name) ?? "",
    hookEvent: str(ctx.msg.hook_event) ?? "",
  }),
];

export const mapHookProgress: ClaudeHandler = (ctx) => [
  emit(ctx, "hook.progress", {
    hookId: str(ctx.msg.hook_id) ?? "",
    output: str(ctx.msg.output),
    stdout: str(ctx.msg.stdout),
    stderr: str(ctx.msg.stderr),
  }),
];

export const mapHookResponse: ClaudeHandler = (ctx) => {
  const outcome = str(ctx.msg.outcome);
  return [
    emit(ctx, "hook.completed", {
      hookId: str(ctx.msg.hook_id) ?? "",
      outcome: outcome === "error" || outcome === "cancelled" ? outcome : "success",
      output: str(ctx.msg.output),
      stdout: str(ctx.msg.stdout),
      stderr: str(ctx.msg.stderr),
      exitCode: num(ctx.msg.exit_code),
    }),
  ];
};

function taskIdOf(ctx: ClaudeContext): string {
  return mintId(ctx.state.sessionId, "task", str(ctx.msg.task_id) ?? "task");
}

/** Task events link to the Task/Agent item that spawned them when Claude names its tool_use id. */
function taskIds(ctx: ClaudeContext) {
  const taskKey = str(ctx.msg.task_id);
  const named = str(ctx.msg.tool_use_id);
  if (taskKey !== undefined && named !== undefined) ctx.state.taskTools.set(taskKey, named);
  const toolUseId = named ?? (taskKey === undefined ? undefined : ctx.state.taskTools.get(taskKey));
  const linked =
    toolUseId !== undefined &&
    (ctx.state.tools.isOpen(`tool:${toolUseId}`) || ctx.state.finishedTools.has(toolUseId));
  return {
    ...(linked ? { parentItemId: toolItemId(ctx.state, toolUseId) } : {}),
    providerRefs: { providerItemId: str(ctx.msg.task_id) },
  };
}

export const mapTaskStarted: ClaudeHandler = (ctx) => [
  emit(
    ctx,
    "task.started",
    {
      taskId: taskIdOf(ctx),
      description: str(ctx.msg.description),
      taskType: str(ctx.msg.task_type) ?? str(ctx.msg.subagent_type),
    },
    taskIds(ctx),
  ),
];

export const mapTaskProgress: ClaudeHandler = (ctx) => [
  emit(
    ctx,
    "task.progress",
    {
      taskId: taskIdOf(ctx),
      description: str(ctx.msg.summary) ?? str(ctx.msg.description) ?? "",
      usage: ctx.msg.usage,
      lastToolName: str(ctx.msg.last_tool_name),
    },
    taskIds(ctx),
  ),
];

/** `system:task_updated`: a patch of the task's state → task.progress describing it. */
export const mapTaskUpdated: ClaudeHandler = (ctx) => {
  const patch = asObject(ctx.msg.patch) ?? {};
  const parts = [
    str(patch.description),
    str(patch.status) && `status: ${str(patch.status)}`,
    str(patch.error) && `error: ${str(patch.error)}`,
  ];
  const description = parts
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .join("; ");
  return [
    emit(
      ctx,
      "task.progress",
      { taskId: taskIdOf(ctx), description: description || "updated" },
      taskIds(ctx),
    ),
  ];
};

export const mapTaskNotification: ClaudeHandler = (ctx) => {
  const status = str(ctx.msg.status);
  return [
    emit(
      ctx,
      "task.completed",
      {
        taskId: taskIdOf(ctx),
        status: status === "failed" || status === "stopped" ? status : "completed",
        summary: str(ctx.msg.summary),
        usage: ctx.msg.usage,
      },
      taskIds(ctx),
    ),
  ];
};

export const mapFilesPersisted: ClaudeHandler = (ctx) => {
  const files = (arr(ctx.msg.files) ?? [])
    .filter(isObject)
    .map((file) => ({ filename: str(file.filename) ?? "", fileId: str(file.file_id) ?? "" }));
  const failed = (arr(ctx.msg.failed) ?? [])
    .filter(isObject)
    .map((file) => ({ filename: str(file.filename) ?? "", error: str(file.error) ?? "" }));
  return [emit(ctx, "files.persisted", { files, ...(failed.length > 0 ? { failed } : {}) })];
};

export const mapModelRefusalFallback: ClaudeHandler = (ctx) => [
  emit(ctx, "model.rerouted", {
    fromModel: str(ctx.msg.original_model) ?? "",
    toModel: str(ctx.msg.fallback_model) ?? "",
    reason: str(ctx.msg.api_refusal_explanation) ?? str(ctx.msg.api_refusal_category) ?? "refusal",
  }),
];

export const mapModelRefusal: ClaudeHandler = (ctx) => [
  emit(ctx, "runtime.error", {
    message: `model ${str(ctx.msg.original_model) ?? ""} refused: ${str(ctx.msg.content) ?? "no explanation"}`,
    class: "provider_error",
    detail: { category: ctx.msg.api_refusal_category, explanation: ctx.msg.api_refusal_explanation },
  }),
];

export const mapWorkerShuttingDown: ClaudeHandler = (ctx) => [
  emit(ctx, "session.state.changed", {
    state: "stopped",
    reason: str(ctx.msg.reason) ?? "worker shutting down",
  }),
];

export const mapCommandsChanged: ClaudeHandler = (ctx) => [
  emit(ctx, "session.configured", { config: { slashCommands: ctx.msg.commands } }),
];

export const mapMirrorError: ClaudeHandler = (ctx) => [
  emit(ctx, "runtime.warning", {
    message: `session mirror error: ${str(ctx.msg.error) ?? "unknown"}`,
    detail: { reason: "mirror-error" },
  }),
];

export const mapSessionWritesLost: ClaudeHandler = (ctx) => [
  emit(ctx, "runtime.warning", {
    message: `session writes lost (${str(ctx.msg.error_code) ?? "error"}): ${(arr(ctx.msg.lost) ?? []).join(", ")}`,
    detail: { reason: "session-writes-lost" },
  }),
];

/** `system:informational`: a warning-level notice is a warning; others are shown as provider events. */
export const mapInformational: ClaudeHandler = (ctx) => {
  const content = str(ctx.msg.content) ?? "";
  if (ctx.msg.level === "warning")
    return [emit(ctx, "runtime.warning", { message: content, detail: { reason: "informational" } })];
  return [emit(ctx, "provider.event", { name: "system:informational", summary: content })];
};

export const mapToolProgress: ClaudeHandler = (ctx) => [
  toolProgress(ctx, {
    toolUseId: str(ctx.msg.tool_use_id),
    toolName: str(ctx.msg.tool_name),
    elapsedSeconds: num(ctx.msg.elapsed_time_seconds),
  }),
];

export const mapToolUseSummary: ClaudeHandler = (ctx) => {
  const ids = (arr(ctx.msg.preceding_tool_use_ids) ?? []).filter(
    (id): id is string => typeof id === "string",
  );
  return [emit(ctx, "tool.summary", { summary: str(ctx.msg.summary) ?? "", precedingToolUseIds: ids })];
};

export const mapAuthStatus: ClaudeHandler = (ctx) => {
  const output = (arr(ctx.msg.output) ?? []).filter((line): line is string => typeof line === "string");
  return [
    emit(ctx, "auth.status", {
      isAuthenticating: bool(ctx.msg.isAuthenticating),
      output,
      error: str(ctx.msg.error),
    }),
  ];
};

export const mapRateLimit: ClaudeHandler = (ctx) => [
  emit(ctx, "account.rate-limits.updated", { rateLimits: ctx.msg.rate_limit_info ?? ctx.msg }),
];

export const mapConversationReset: ClaudeHandler = (ctx) => [
  emit(ctx, "thread.state.changed", {
    state: "idle",
    detail: { reset: true, newConversationId: ctx.msg.new_conversation_id, trigger: ctx.msg.trigger },
  }),
];

/** A known message with nothing canonical to carry: a provider.event with a short summary. */
export function providerEventOf(
  name: string,
  summarize: (msg: Record<string, unknown>) => string | undefined,
): ClaudeHandler {
  return (ctx) => {
    const summary = summarize(ctx.msg);
    return [emit(ctx, "provider.event", summary === undefined ? { name } : { name, summary })];
  };
}
