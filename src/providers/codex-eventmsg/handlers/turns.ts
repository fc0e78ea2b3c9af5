import type { RuntimeEvent } from "../../../contracts/events.js";
import type { PlanStep, ThreadTokenUsage } from "../../../contracts/payloads.js";
import { arr, asObject, num, str } from "../../../kit/guards.js";
import { pick, pickId, pickObj, pickStr, tokenUsageOf, withoutType } from "../fields.js";
import type { EventMsgTable, MsgContext } from "./table.js";

/** Turn, thread and session lifecycle: task_*, turn_aborted, errors, usage, plan, diff, configuration. */
export const turnHandlers: EventMsgTable = {
  task_started: {
    yields: ["turn.started"],
    handle: ({ core, p, raw }) => {
      const nativeTurnId = pickId(p, "turn_id", "turnId");
      if (nativeTurnId !== undefined && core.turn?.nativeTurnId === nativeTurnId) {
        return [core.note("task_started", raw, "the turn is already open")];
      }
      return core.openTurn(nativeTurnId, raw);
    },
  },
  task_complete: {
    yields: ["turn.completed", "runtime.error"],
    note: "failed when the payload has `error` (0.171.0: runtime.error first) or an `error` came in the turn; a turn never seen starting is started first",
    handle: ({ core, p, raw }) => {
      const events: RuntimeEvent[] = [];
      const turn = core.ensureTurn(raw, events);
      const error = pickObj(p, "error");
      const message = error === undefined ? undefined : (pickStr(error, "message") ?? "turn failed");
      if (message !== undefined) {
        turn.errorMessage = message;
        const info = pick(error ?? {}, "codex_error_info", "codexErrorInfo");
        events.push(
          core.emit(
            "runtime.error",
            { message, class: "provider_error", detail: { codexErrorInfo: info } },
            raw,
          ),
        );
      }
      events.push(...core.closeTurn({ state: "completed" }, raw));
      return events;
    },
  },
  turn_aborted: {
    yields: ["turn.completed"],
    note: "ends the turn: interrupted (interrupted, review_ended) or cancelled (replaced), stopReason = reason",
    handle: ({ core, p, raw }) => {
      const reason = pickStr(p, "reason") ?? "aborted";
      if (core.turn === undefined) return [core.note("turn_aborted", raw, `no open turn (${reason})`)];
      return core.closeTurn(
        { state: reason === "replaced" ? "cancelled" : "interrupted", stopReason: reason },
        raw,
      );
    },
  },
  error: {
    yields: ["runtime.error"],
    note: "the open turn then ends failed",
    handle: ({ core, p, raw }) => {
      const message = pickStr(p, "message") ?? "error";
      if (core.turn !== undefined) core.turn.errorMessage = message;
      const info = pick(p, "codex_error_info", "codexErrorInfo");
      return [
        core.emit(
          "runtime.error",
          { message, class: "provider_error", detail: { codexErrorInfo: info } },
          raw,
        ),
      ];
    },
  },
  warning: {
    yields: ["runtime.warning"],
    handle: ({ core, p, raw }) => [
      core.emit(
        "runtime.warning",
        { message: pickStr(p, "message") ?? "warning", detail: { reason: "provider-warning" } },
        raw,
      ),
    ],
  },
  stream_error: {
    yields: ["runtime.error"],
    note: "a retried stream failure: detail.willRetry = true (as the app-server's error notification)",
    handle: ({ core, p, raw }) => [
      core.emit(
        "runtime.error",
        {
          message: pickStr(p, "message") ?? "stream error",
          class: "provider_error",
          detail: {
            willRetry: true,
            codexErrorInfo: pick(p, "codex_error_info", "codexErrorInfo"),
            additionalDetails: pick(p, "additional_details", "additionalDetails"),
          },
        },
        raw,
      ),
    ],
  },
  token_count: {
    yields: ["thread.token-usage.updated", "account.rate-limits.updated"],
    note: "usage from `info` (totals + last call), rate limits from `rate_limits`; either may be absent",
    handle: mapTokenCount,
  },
  plan_update: {
    yields: ["turn.plan.updated"],
    handle: ({ core, p, raw }) => {
      const plan: PlanStep[] = [];
      for (const entry of arr(p.plan) ?? []) {
        const step = asObject(entry);
        const text = str(step?.step);
        if (step === undefined || text === undefined) continue;
        plan.push({ step: text, status: planStatus(step.status) });
      }
      const explanation = pick(p, "explanation");
      return [
        core.emit(
          "turn.plan.updated",
          { explanation: typeof explanation === "string" ? explanation : null, plan },
          raw,
        ),
      ];
    },
  },
  turn_diff: {
    yields: ["turn.diff.updated"],
    handle: ({ core, p, raw }) => [
      core.emit("turn.diff.updated", { unifiedDiff: pickStr(p, "unified_diff", "unifiedDiff") ?? "" }, raw),
    ],
  },
  context_compacted: {
    yields: ["thread.state.changed"],
    handle: ({ core, raw }) => [core.emit("thread.state.changed", { state: "compacted" }, raw)],
  },
  thread_rolled_back: {
    yields: ["thread.metadata.updated"],
    note: "metadata.rolledBackTurns = num_turns",
    handle: ({ core, p, raw }) => [
      core.emit(
        "thread.metadata.updated",
        { metadata: { rolledBackTurns: num(pick(p, "num_turns", "numTurns")) ?? null } },
        raw,
      ),
    ],
  },
  model_reroute: {
    yields: ["model.rerouted"],
    handle: ({ core, p, raw }) => [
      core.emit(
        "model.rerouted",
        {
          fromModel: pickStr(p, "from_model", "fromModel") ?? "",
          toModel: pickStr(p, "to_model", "toModel") ?? "",
          reason: pickStr(p, "reason") ?? "",
        },
        raw,
      ),
    ],
  },
  session_configured: {
    yields: ["thread.started", "session.configured"],
    note: "thread.started the first time its session_id (the thread) is seen",
    handle: ({ core, p, raw }) => {
      const events = core.ensureThread(pickId(p, "session_id", "thread_id", "threadId"), raw);
      const model = pickStr(p, "model");
      if (model !== undefined) core.model = model;
      const effort = pickStr(p, "reasoning_effort");
      if (effort !== undefined) core.effort = effort;
      const { initial_messages: _history, ...config } = withoutType(p);
      events.push(core.emit("session.configured", { config }, raw));
      return events;
    },
  },
  thread_settings_applied: {
    yields: ["thread.started", "session.configured"],
    note: "written by 0.171.0 rollouts; config = thread_settings",
    handle: ({ core, p, raw }) => {
      const events = core.ensureThread(pickId(p, "thread_id", "threadId"), raw);
      const settings = pickObj(p, "thread_settings", "threadSettings") ?? {};
      const model = str(settings.model);
      if (model !== undefined) core.model = model;
      events.push(core.emit("session.configured", { config: settings }, raw));
      return events;
    },
  },
  thread_name_updated: {
    yields: ["thread.metadata.updated"],
    handle: ({ core, p, raw }) => {
      const name = pickStr(p, "thread_name", "threadName", "name");
      return [core.emit("thread.metadata.updated", name === undefined ? {} : { name }, raw)];
    },
  },
  shutdown_complete: {
    yields: ["turn.completed", "session.exited"],
    note: "an open turn ends interrupted first",
    handle: ({ core, raw }) => [
      ...core.closeTurn({ state: "interrupted", stopReason: "shutdown" }, raw),
      core.emit("session.exited", { reason: "shutdown_complete", exitKind: "graceful" }, raw),
    ],
  },
};

function mapTokenCount({ core, p, raw }: MsgContext): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  const info = pickObj(p, "info");
  const total = tokenUsageOf(info?.total_token_usage ?? info?.totalTokenUsage);
  if (info !== undefined && total !== undefined) {
    const usage: ThreadTokenUsage = { total };
    const last = tokenUsageOf(info.last_token_usage ?? info.lastTokenUsage);
    if (last !== undefined) usage.last = last;
    const window = info.model_context_window ?? info.modelContextWindow;
    if (window === null || typeof window === "number") usage.modelContextWindow = window;
    events.push(core.emit("thread.token-usage.updated", { usage }, raw));
  }
  const rateLimits = pick(p, "rate_limits", "rateLimits");
  if (rateLimits !== undefined) events.push(core.emit("account.rate-limits.updated", { rateLimits }, raw));
  if (events.length === 0) events.push(core.note("token_count", raw, "no usage and no rate limits"));
  return events;
}

function planStatus(value: unknown): PlanStep["status"] {
  if (value === "completed") return "completed";
  if (value === "in_progress" || value === "inProgress") return "inProgress";
  return "pending";
}
