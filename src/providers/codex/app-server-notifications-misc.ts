import { arr, bool, isObject, type JsonObject, num, preview, str } from "../../kit/guards.js";
import type { CodexHandler, CodexHandlerTable } from "./app-server-handler.js";
import type { HandlerContext } from "./app-server-state.js";

/** A known message that no canonical family fits (DESIGN.md §2): `provider.event` with a short summary. */
function providerEvent(summary?: (params: JsonObject) => string | undefined, note?: string): CodexHandler {
  const handler: CodexHandler = {
    yields: ["provider.event"],
    handle(ctx, params, message) {
      ctx.emit(
        "provider.event",
        { name: str(message.method) ?? "unknown", summary: summary?.(params) },
        ctx.thread(str(params.threadId)),
      );
    },
  };
  if (note !== undefined) handler.note = note;
  return handler;
}

function warning(message: (params: JsonObject) => string): CodexHandler {
  return {
    yields: ["runtime.warning"],
    handle(ctx, params) {
      ctx.warn(message(params), params, ctx.thread(str(params.threadId)));
    },
  };
}

/** Base64 output chunks of standalone processes, decoded as UTF-8 without Node built-ins. */
function decodeBase64(value: string | undefined): string {
  if (value === undefined) return "";
  try {
    const binary = atob(value);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  } catch {
    return "";
  }
}

/**
 * Output of a process the client started itself (`command/exec`, `process/spawn`): part of no turn and no item, a
 * reply to the client's own utility request. Canonical content deltas belong to an item, so the decoded text is
 * the summary of a `provider.event`.
 */
function processOutput(): CodexHandler {
  return {
    yields: ["provider.event"],
    note: "output of a client-started process (decoded from base64 into the summary); no turn, no item",
    handle(ctx, params, message) {
      ctx.emit("provider.event", {
        name: str(message.method) ?? "process output",
        summary: decodeBase64(str(params.deltaBase64)),
      });
    },
  };
}

/** A background task keyed by a native id; `task.started` is emitted on first sight. */
function taskId(ctx: HandlerContext, kind: string, nativeKey: string, description: string): string {
  const id = ctx.state.taskId(kind, nativeKey);
  if (!ctx.state.tasks.has(id)) {
    ctx.state.tasks.set(id, true);
    ctx.emit("task.started", { taskId: id, description, taskType: kind });
  }
  return id;
}

function hookOutput(run: JsonObject): string | undefined {
  const texts = (arr(run.entries) ?? []).map((e) => (isObject(e) ? str(e.text) : undefined));
  const joined = texts.filter((t) => t !== undefined).join("\n");
  return joined.length > 0 ? joined : undefined;
}

const HOOK_OUTCOME: Record<string, "success" | "error" | "cancelled"> = {
  completed: "success",
  failed: "error",
  blocked: "error",
  stopped: "cancelled",
};

const HOOKS: CodexHandlerTable = {
  "hook/started": {
    yields: ["hook.started"],
    handle(ctx, params) {
      const run = isObject(params.run) ? params.run : {};
      ctx.emit(
        "hook.started",
        {
          hookId: ctx.state.taskId("hook", str(run.id) ?? ""),
          hookName: str(run.sourcePath) ?? str(run.handlerType) ?? "hook",
          hookEvent: str(run.eventName) ?? "unknown",
        },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "hook/completed": {
    yields: ["hook.completed"],
    handle(ctx, params) {
      const run = isObject(params.run) ? params.run : {};
      ctx.emit(
        "hook.completed",
        {
          hookId: ctx.state.taskId("hook", str(run.id) ?? ""),
          outcome: HOOK_OUTCOME[str(run.status) ?? ""] ?? "success",
          output: hookOutput(run),
        },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
};

const REVIEWS: CodexHandlerTable = {
  "item/autoApprovalReview/started": {
    yields: ["task.started"],
    note: "an automatic approval review is a background task",
    handle(ctx, params) {
      const ids = ctx.turn(str(params.threadId), str(params.turnId));
      const id = ctx.state.taskId("autoApprovalReview", str(params.reviewId) ?? "");
      ctx.state.tasks.set(id, true);
      ctx.emit(
        "task.started",
        { taskId: id, description: preview(params.action, 120), taskType: "autoApprovalReview" },
        ids,
      );
    },
  },
  "item/autoApprovalReview/completed": {
    yields: ["task.completed"],
    handle(ctx, params) {
      const ids = ctx.turn(str(params.threadId), str(params.turnId));
      const id = taskId(ctx, "autoApprovalReview", str(params.reviewId) ?? "", preview(params.action, 120));
      ctx.emit(
        "task.completed",
        { taskId: id, status: "completed", summary: preview(params.review, 200) },
        ids,
      );
    },
  },
  "autoApprovalReview/strictReviewRequired": providerEvent(() => "strict approval review required"),
};

/** The task of one external agent config import (started on first sight). */
function importTaskId(ctx: HandlerContext, params: JsonObject): string {
  return taskId(ctx, "externalAgentConfigImport", str(params.importId) ?? "", "external agent config import");
}

const IMPORTS: CodexHandlerTable = {
  "externalAgentConfig/import/progress": {
    yields: ["task.started", "task.progress"],
    handle(ctx, params) {
      const id = importTaskId(ctx, params);
      ctx.emit("task.progress", { taskId: id, description: preview(params.itemTypeResults, 200) });
    },
  },
  "externalAgentConfig/import/completed": {
    yields: ["task.started", "task.completed"],
    handle(ctx, params) {
      const id = importTaskId(ctx, params);
      ctx.emit("task.completed", {
        taskId: id,
        status: "completed",
        summary: preview(params.itemTypeResults, 200),
      });
    },
  },
};

const ACCOUNT_AND_MCP: CodexHandlerTable = {
  "account/updated": {
    yields: ["account.updated"],
    handle(ctx, params) {
      ctx.emit("account.updated", { account: params });
    },
  },
  "account/rateLimits/updated": {
    yields: ["account.rate-limits.updated"],
    handle(ctx, params) {
      ctx.emit("account.rate-limits.updated", { rateLimits: params.rateLimits ?? null });
    },
  },
  "account/login/completed": {
    yields: ["auth.status"],
    handle(ctx, params) {
      ctx.emit("auth.status", { isAuthenticating: false, error: str(params.error) });
    },
  },
  "account/gatewayOAuth/changed": {
    yields: ["auth.status"],
    handle(ctx, params) {
      const status = str(params.status);
      const output = [`gateway oauth ${str(params.providerId) ?? ""}: ${status ?? "unknown"}`];
      const authUrl = str(params.authUrl);
      if (authUrl !== undefined) output.push(authUrl);
      ctx.emit("auth.status", {
        isAuthenticating: status === "started" || status === "notReady",
        output,
        error: str(params.error),
      });
    },
  },
  "modelProvider/authRecoveryStarted": authRecovery(true, "auth recovery started"),
  "modelProvider/authRecoveryCompleted": authRecovery(false, "auth recovery completed"),
  "mcpServer/oauthLogin/completed": {
    yields: ["mcp.oauth.completed"],
    handle(ctx, params) {
      ctx.emit(
        "mcp.oauth.completed",
        { success: bool(params.success) ?? false, name: str(params.name), error: str(params.error) },
        ctx.thread(str(params.threadId)),
      );
    },
  },
  "mcpServer/startupStatus/updated": {
    yields: ["mcp.status.updated"],
    handle(ctx, params) {
      ctx.emit("mcp.status.updated", { status: params }, ctx.thread(str(params.threadId)));
    },
  },
  "mcpServer/event/stream/notification": providerEvent((p) => `subscription ${str(p.subscriptionId) ?? "?"}`),
};

const MODEL: CodexHandlerTable = {
  "model/rerouted": {
    yields: ["model.rerouted"],
    handle(ctx, params) {
      ctx.emit(
        "model.rerouted",
        {
          fromModel: str(params.fromModel) ?? "",
          toModel: str(params.toModel) ?? "",
          reason: str(params.reason) ?? "",
        },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  },
  "model/verification": providerEvent((p) => preview(p.verifications, 200)),
  "model/safetyBuffering/updated": providerEvent(
    (p) => `${str(p.model) ?? "model"} buffering=${String(p.showBufferingUi)}`,
  ),
  "turn/moderationMetadata": providerEvent(() => "moderation metadata"),
};

const NOTICES: CodexHandlerTable = {
  warning: warning((p) => str(p.message) ?? "codex warning"),
  guardianWarning: warning((p) => str(p.message) ?? "guardian warning"),
  "windows/worldWritableWarning": warning(
    (p) => `world-writable paths found (${(arr(p.samplePaths) ?? []).length + (num(p.extraCount) ?? 0)})`,
  ),
  deprecationNotice: {
    yields: ["deprecation.notice"],
    handle(ctx, params) {
      ctx.emit("deprecation.notice", { summary: str(params.summary) ?? "", details: str(params.details) });
    },
  },
  configWarning: {
    yields: ["config.warning"],
    handle(ctx, params) {
      ctx.emit("config.warning", {
        summary: str(params.summary) ?? "",
        details: str(params.details),
        path: str(params.path),
        range: params.range ?? undefined,
      });
    },
  },
  "windowsSandbox/setupCompleted": {
    yields: ["session.state.changed", "runtime.warning"],
    handle(ctx, params) {
      const success = bool(params.success) ?? false;
      ctx.emit("session.state.changed", {
        state: success ? "ready" : "error",
        reason: "windows sandbox setup",
        detail: str(params.error),
      });
      if (!success) ctx.warn(`windows sandbox setup failed: ${str(params.error) ?? "unknown error"}`, params);
    },
  },
};

function realtimeItem(ctx: HandlerContext, params: JsonObject, item: unknown): void {
  ctx.emit("thread.realtime.item-added", { item }, ctx.thread(str(params.threadId)));
}

const REALTIME: CodexHandlerTable = {
  "thread/realtime/started": {
    yields: ["thread.realtime.started"],
    handle(ctx, params) {
      ctx.emit(
        "thread.realtime.started",
        { realtimeSessionId: str(params.realtimeSessionId) },
        ctx.thread(str(params.threadId)),
      );
    },
  },
  "thread/realtime/itemAdded": {
    yields: ["thread.realtime.item-added"],
    handle: (ctx, params) => realtimeItem(ctx, params, params.item ?? null),
  },
  "thread/realtime/item/started": {
    yields: ["thread.realtime.item-added"],
    handle: (ctx, params) => realtimeItem(ctx, params, { phase: "started", item: params.item }),
  },
  "thread/realtime/item/completed": {
    yields: ["thread.realtime.item-added"],
    handle: (ctx, params) => realtimeItem(ctx, params, { phase: "completed", item: params.item }),
  },
  "thread/realtime/transcript/done": {
    yields: ["thread.realtime.item-added"],
    handle: (ctx, params) =>
      realtimeItem(ctx, params, { transcript: { role: params.role, text: params.text } }),
  },
  "thread/realtime/item/transcript/delta": providerEvent((p) => str(p.delta), "realtime transcript delta"),
  "thread/realtime/transcript/delta": providerEvent((p) => str(p.delta), "realtime transcript delta"),
  "thread/realtime/sdp": providerEvent(() => "realtime SDP answer"),
  "thread/realtime/outputAudio/delta": {
    yields: ["thread.realtime.audio.delta"],
    handle(ctx, params) {
      ctx.emit(
        "thread.realtime.audio.delta",
        { audio: params.audio ?? null },
        ctx.thread(str(params.threadId)),
      );
    },
  },
  "thread/realtime/error": {
    yields: ["thread.realtime.error"],
    handle(ctx, params) {
      ctx.emit(
        "thread.realtime.error",
        { message: str(params.message) ?? "realtime error" },
        ctx.thread(str(params.threadId)),
      );
    },
  },
  "thread/realtime/closed": {
    yields: ["thread.realtime.closed"],
    handle(ctx, params) {
      ctx.emit("thread.realtime.closed", { reason: str(params.reason) }, ctx.thread(str(params.threadId)));
    },
  },
};

const CLIENT_UTILITIES: CodexHandlerTable = {
  "command/exec/outputDelta": processOutput(),
  "process/outputDelta": processOutput(),
  "process/exited": providerEvent((p) => `exit code ${String(p.exitCode)}`),
  "thread/search/partial": providerEvent((p) => `${(arr(p.data) ?? []).length} results`),
  "fuzzyFileSearch/sessionUpdated": providerEvent(
    (p) => `${(arr(p.files) ?? []).length} files for ${str(p.query) ?? ""}`,
  ),
  "fuzzyFileSearch/sessionCompleted": providerEvent(),
  "fs/changed": providerEvent((p) => `${(arr(p.changedPaths) ?? []).length} paths changed`),
  "skills/changed": providerEvent(() => "skills changed; re-list them"),
  "app/list/updated": providerEvent((p) => `${(arr(p.data) ?? []).length} apps`),
  "project/changed": providerEvent((p) => `${str(p.changeType) ?? "changed"} ${str(p.projectId) ?? ""}`),
  "remoteControl/status/changed": providerEvent((p) => `remote control ${str(p.status) ?? "unknown"}`),
};

/** Notifications outside the thread/turn/item core. */
export const MISC_NOTIFICATIONS: CodexHandlerTable = {
  ...HOOKS,
  ...REVIEWS,
  ...IMPORTS,
  ...ACCOUNT_AND_MCP,
  ...MODEL,
  ...NOTICES,
  ...REALTIME,
  ...CLIENT_UTILITIES,
};

/** The model provider re-authenticating mid-session: auth.status, in progress or done. */
function authRecovery(isAuthenticating: boolean, fallbackMessage: string): CodexHandler {
  return {
    yields: ["auth.status"],
    handle(ctx, params) {
      const output = [str(params.message) ?? fallbackMessage];
      ctx.emit(
        "auth.status",
        { isAuthenticating, output },
        ctx.turn(str(params.threadId), str(params.turnId)),
      );
    },
  };
}
