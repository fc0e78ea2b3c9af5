import type { RuntimeEventType } from "./event-types.js";

/**
 * One sentence per event type: carried into the JSON Schema and docs/events.md. (A zod description is runtime
 * metadata; the emitted `.d.ts` does not carry it.)
 */
export const EVENT_TYPE_DESCRIPTIONS: Record<RuntimeEventType, string> = {
  "session.started": "The agent program was started (or resumed) for this session.",
  "session.configured": "The session's configuration as the provider reports it (model, cwd, tools, …).",
  "session.state.changed":
    "The session's state: starting at spawn, ready after the handshake and after every turn, running during a turn, waiting while a request awaits the host, stopped at exit, error on a fatal failure.",
  "session.exited": "The session ended; no event of the session follows it.",
  "thread.started": "A conversation thread began (the main thread or a subagent's).",
  "thread.state.changed": "The thread's state: active while a turn runs, idle when it has ended.",
  "thread.metadata.updated": "The thread's name or metadata changed (e.g. a generated title).",
  "thread.token-usage.updated": "Token usage of the thread so far and of the latest model call.",
  "thread.realtime.started": "A realtime (voice) session started on the thread.",
  "thread.realtime.item-added": "An item was added to the realtime session.",
  "thread.realtime.audio.delta": "A chunk of realtime audio.",
  "thread.realtime.error": "The realtime session reported an error.",
  "thread.realtime.closed": "The realtime session closed.",
  "turn.started": "A turn began: the agent works on one user prompt.",
  "turn.completed":
    "The turn ended (completed, failed, interrupted or cancelled); every turn ends exactly once.",
  "turn.aborted": "The turn was abandoned before it could complete.",
  "turn.plan.updated": "The agent's plan for the turn, as a whole list of steps.",
  "turn.diff.updated": "The turn's aggregated diff so far, as unified text.",
  "item.started": "An item of the turn began: a message, reasoning, a command, an edit, a tool call, …",
  "item.updated": "An item's fields changed before it completed (e.g. a tool's input became known).",
  "item.completed": "The item ended, with its final details and status.",
  "content.delta": "A piece of streamed content of an item (assistant text, reasoning, command output, …).",
  "request.opened":
    "The agent asks the host for a decision (an approval, a capability call); answer it with `respond()`.",
  "request.resolved":
    "The request was answered, or cancelled when the session stopped; always follows `request.opened`.",
  "user-input.requested": "The agent asks the user questions; the answers go back with `respond()`.",
  "user-input.resolved": "The questions were answered (or cancelled).",
  "task.started": "A background task or subagent task began.",
  "task.progress": "Progress of a background task.",
  "task.completed": "A background task ended.",
  "hook.started": "A provider hook began running.",
  "hook.progress": "Output of a running hook.",
  "hook.completed": "A hook ended, with its outcome.",
  "tool.progress": "A long-running tool reports that it is still working.",
  "tool.summary": "A summary of tool calls the provider wrote.",
  "auth.status": "The provider's authentication status.",
  "account.updated": "The account the provider runs under changed.",
  "account.rate-limits.updated": "The account's rate limits as the provider reports them.",
  "mcp.status.updated": "The status of the provider's MCP servers.",
  "mcp.oauth.completed": "An MCP server's OAuth login finished.",
  "model.rerouted": "The provider switched the turn to another model.",
  "config.warning": "The provider found a problem in its configuration.",
  "deprecation.notice": "The provider announced a deprecation.",
  "files.persisted": "Files the provider saved (uploaded) for the session.",
  "runtime.warning":
    "Something a user should see that did not stop the session: unknown native input (possible protocol drift), malformed input, platform warnings. Carries the native record in `raw`.",
  "runtime.error":
    "An error with a class (provider, transport, permission, validation); where it ends the turn, a failed `turn.completed` follows.",
  "provider.event":
    "Extension: a known native message that no canonical family fits (e.g. a reply to a utility request). Not a warning.",
};
