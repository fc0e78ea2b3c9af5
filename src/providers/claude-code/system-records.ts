/**
 * `system` records of a session file, by `subtype`. The few with a canonical family map to it; the rest are
 * known notes (a local command's echo, a turn's duration, UI state) and show as `provider.event`s. A subtype no
 * version writes is a warning, once per subtype.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, num, own, preview, str } from "../../kit/guards.js";
import { emit } from "../claude/context.js";
import { mapInformational } from "../claude/system-messages.js";
import type { SessionFileContext, SessionFileHandler } from "./context.js";
import { SYSTEM_SUBTYPES } from "./record-kinds.js";
import { unknownKindOnce } from "./unknown-kinds.js";

const KNOWN = new Set<string>(SYSTEM_SUBTYPES);

const compacted: SessionFileHandler = (ctx) => [
  emit(ctx, "thread.state.changed", {
    state: "compacted",
    detail: ctx.record.compactMetadata ?? ctx.record.microcompactMetadata,
  }),
];

/** Subtypes with a canonical family; every other known subtype is a provider.event. */
export const SYSTEM_HANDLERS: Record<string, SessionFileHandler> = {
  compact_boundary: compacted,
  microcompact_boundary: compacted,
  informational: mapInformational,
  api_error: (ctx) => {
    const { record } = ctx;
    const error = asObject(record.error);
    const status = num(error?.status);
    const text = str(error?.formatted) ?? str(error?.message) ?? "model API error";
    return [
      emit(ctx, "runtime.warning", {
        message: `${text}: retry ${num(record.retryAttempt) ?? "?"} of ${num(record.maxRetries) ?? "?"} in ${num(record.retryInMs) ?? "?"} ms`,
        detail: {
          reason: "api-retry",
          attempt: record.retryAttempt,
          maxRetries: record.maxRetries,
          retryDelayMs: record.retryInMs,
          errorStatus: status,
        },
      }),
    ];
  },
  stop_hook_summary: (ctx) => {
    const { record } = ctx;
    const errors = (arr(record.hookErrors) ?? []).map((error) => preview(error));
    const hookId = str(record.toolUseID) ?? str(record.uuid) ?? "stop-hooks";
    return [
      emit(ctx, "hook.completed", {
        hookId,
        outcome: errors.length > 0 ? "error" : "success",
        output: `${num(record.hookCount) ?? 0} stop hooks${record.preventedContinuation === true ? ", continuation prevented" : ""}`,
        ...(errors.length > 0 ? { stderr: errors.join("\n") } : {}),
      }),
    ];
  },
};

export function mapSystemRecord(ctx: SessionFileContext): RuntimeEvent[] {
  const subtype = str(ctx.record.subtype) ?? "(none)";
  const handler = own(SYSTEM_HANDLERS, subtype);
  if (handler !== undefined) return handler(ctx);
  if (KNOWN.has(subtype))
    return [emit(ctx, "provider.event", { name: `system:${subtype}`, summary: summaryOf(ctx, subtype) })];
  return unknownKindOnce(ctx, `system:${subtype}`);
}

function summaryOf(ctx: SessionFileContext, subtype: string): string | undefined {
  const { record } = ctx;
  if (subtype === "turn_duration") return `${num(record.durationMs) ?? "?"} ms`;
  const content = str(record.content);
  return content === undefined ? undefined : preview(content);
}
