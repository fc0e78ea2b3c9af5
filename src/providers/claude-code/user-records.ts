/**
 * `user` records. In the main chain one of: tool results (they complete tool items, as in a live session), a
 * meta record Claude Code wrote for the model (`isMeta`: caveats, expanded skills), a compaction summary, the
 * user's interruption marker, a local command's output, a background task's notification, or a prompt. A prompt (a slash command included: it is
 * what the user typed) starts a turn. Sidechain records are a subagent's prompt and tool results: they stay in
 * the turn that spawned the subagent, linked to its Agent/Task item.
 */
import type { RuntimeEvent } from "../../contracts/events.js";
import { arr, asObject, idKey, isObject, preview } from "../../kit/guards.js";
import { emit } from "../claude/context.js";
import { outputText } from "../claude/tool-items.js";
import { mapUserMessage, userMessageItem } from "../claude/user-messages.js";
import { approvalEvents } from "./approvals.js";
import { isSidechain, type SessionFileContext } from "./context.js";
import { INTERRUPT_MARKERS } from "./record-kinds.js";
import { noteAgentResult } from "./subagents.js";
import { endTurn, startPromptTurn } from "./turns.js";

const LOCAL_OUTPUT = /^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>/;
/** A background task's (agent's, shell's) report that Claude Code hands the model: not the user's words. */
const TASK_NOTIFICATION = /^\s*<task-notification>/;
const COMMAND_NAME = /<command-name>([^<]*)<\/command-name>/;
const BASH_INPUT = /^\s*<bash-input>([^<]*)<\/bash-input>/;
const COMMAND_ARGS = /<command-args>([^<]*)<\/command-args>/;

export function mapUserRecord(ctx: SessionFileContext): RuntimeEvent[] {
  const { record } = ctx;
  const message = asObject(record.message);
  if (message === undefined)
    return [
      emit(ctx, "runtime.warning", {
        message: "malformed user record: no message",
        detail: { reason: "malformed-record", kind: "user" },
      }),
    ];
  const content = message.content;
  const blocks = arr(content);
  const results = (blocks ?? []).filter((block) => isObject(block) && block.type === "tool_result");
  if (isSidechain(record)) return mapUserMessage(ctx);
  if (results.length > 0) {
    const events: RuntimeEvent[] = [];
    if (results.length === 1) {
      const toolUseId = idKey(asObject(results[0])?.tool_use_id);
      if (toolUseId !== undefined) {
        noteAgentResult(record, toolUseId, ctx.file);
        events.push(...approvalEvents(ctx, toolUseId));
      }
    }
    events.push(...mapUserMessage(ctx));
    return events;
  }
  const text = outputText(content);
  if (record.isMeta === true) return [note(ctx, "user:meta", text)];
  if (record.isCompactSummary === true) return [note(ctx, "user:compact_summary", text)];
  if (INTERRUPT_MARKERS.includes(text.trim()))
    return [note(ctx, "user:interrupted", text), ...endTurn(ctx, "interrupted", "interrupted by the user")];
  if (LOCAL_OUTPUT.test(text)) return [note(ctx, "user:local_command_output", text)];
  if (asObject(record.origin)?.kind === "task-notification" || TASK_NOTIFICATION.test(text))
    return [note(ctx, "user:task_notification", text)];
  const events = startPromptTurn(ctx);
  events.push(...userMessageItem(ctx, commandLine(text) ?? text));
  return events;
}

/**
 * What the user typed for a command: `<command-name>/mcp</command-name>…<command-args>x</command-args>` → `/mcp x`;
 * a shell command of bash mode, `<bash-input>ls</bash-input>` → `!ls`.
 */
function commandLine(text: string): string | undefined {
  const bash = BASH_INPUT.exec(text)?.[1];
  if (bash !== undefined) return `!${bash}`;
  const name = COMMAND_NAME.exec(text)?.[1]?.trim();
  if (name === undefined || name.length === 0) return undefined;
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim() ?? "";
  return args.length > 0 ? `${name} ${args}` : name;
}

function note(ctx: SessionFileContext, name: string, text: string): RuntimeEvent {
  return emit(ctx, "provider.event", { name, summary: preview(text) });
}
