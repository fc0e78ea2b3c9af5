import * as z from "zod";
import { RuntimeErrorClass } from "./enums.js";
import { RuntimeTaskId } from "./ids.js";

/** A description for a value kept in the provider's own shape. */
export const providerShaped = (what: string) => `${what}, in the provider's own shape (not normalized).`;

const hookOutput = {
  output: z
    .string()
    .optional()
    .describe("The hook's output, where the provider gives it as one text rather than split by stream."),
  stdout: z.string().optional().describe("What the hook wrote to standard output, where reported."),
  stderr: z.string().optional().describe("What the hook wrote to standard error, where reported."),
};

/** The payloads of the provider/system telemetry families (task.* to provider.event); see payloads.ts. */
export const TELEMETRY_PAYLOADS = {
  "task.started": z.object({
    taskId: RuntimeTaskId,
    description: z
      .string()
      .optional()
      .describe("What the task is about, as the provider words it (e.g. a subagent's task or prompt)."),
    taskType: z
      .string()
      .optional()
      .describe("The provider's kind of task (e.g. `subagent`, `undo`, a shell task), where it says."),
  }),
  "task.progress": z.object({
    taskId: RuntimeTaskId,
    description: z.string().describe("What the task is doing now, as the provider words it."),
    usage: z
      .unknown()
      .optional()
      .describe(providerShaped("The task's usage so far (tokens, tool uses, duration), where reported")),
    lastToolName: z.string().optional().describe("The tool the task used last, where reported."),
  }),
  "task.completed": z.object({
    taskId: RuntimeTaskId,
    status: z
      .enum(["completed", "failed", "stopped"])
      .describe("How the task ended: `completed`, `failed`, or `stopped` before it finished."),
    summary: z
      .string()
      .optional()
      .describe("The provider's summary of the task's result, where it gives one."),
    usage: z
      .unknown()
      .optional()
      .describe(providerShaped("The task's total usage (tokens, tool uses, duration), where reported")),
  }),
  "hook.started": z.object({
    hookId: z
      .string()
      .describe("The provider's id of this hook run; its hook.progress and hook.completed share it."),
    hookName: z.string().describe("The hook's name as configured."),
    hookEvent: z.string().describe("The event the hook runs on (e.g. `PreToolUse`, `SessionStart`)."),
  }),
  "hook.progress": z.object({
    hookId: z.string().describe("The hook run this output belongs to (as in hook.started)."),
    ...hookOutput,
  }),
  "hook.completed": z.object({
    hookId: z.string().describe("The hook run that ended (as in hook.started)."),
    outcome: z
      .enum(["success", "error", "cancelled"])
      .describe("How the hook ended: `success`, `error`, or `cancelled` before it finished."),
    ...hookOutput,
    exitCode: z.number().optional().describe("The hook process's exit code, where reported."),
  }),
  "tool.progress": z.object({
    toolUseId: z
      .string()
      .optional()
      .describe(
        "The provider's own id of the tool call it is about, where known: Claude's tool-use id, Codex's item id of the MCP call (also the envelope's `providerRefs.providerItemId`). The call's canonical item is the envelope's `itemId`, where the mapper knows the item.",
      ),
    toolName: z.string().optional().describe("The tool's name, where reported."),
    summary: z.string().optional().describe("What the tool reports it is doing, where it says."),
    elapsedSeconds: z
      .number()
      .optional()
      .describe("How long the tool has run so far, in seconds, where reported."),
  }),
  "tool.summary": z.object({
    summary: z.string().describe("The provider's summary of the tool calls, as text."),
    precedingToolUseIds: z
      .array(z.string().describe("A tool-use id."))
      .optional()
      .describe("The provider's ids of the tool calls the summary covers (Claude tool-use ids)."),
  }),
  "auth.status": z.object({
    isAuthenticating: z
      .boolean()
      .optional()
      .describe("True while a login is under way, false once it has ended; absent where not reported."),
    output: z
      .array(z.string().describe("One line of output."))
      .optional()
      .describe("Lines the login process printed (e.g. a URL to open), where reported."),
    error: z.string().optional().describe("Why authentication failed; absent when it did not fail."),
  }),
  "account.updated": z.object({
    account: z.unknown().describe(providerShaped("The account (e.g. its auth mode and plan)")),
  }),
  "account.rate-limits.updated": z.object({
    rateLimits: z
      .unknown()
      .describe(providerShaped("The account's rate limits (windows, used share, reset times)")),
  }),
  "mcp.status.updated": z.object({
    status: z
      .unknown()
      .describe(providerShaped("The status of the MCP servers (names, connection state, tools)")),
  }),
  "mcp.oauth.completed": z.object({
    success: z.boolean().describe("Whether the login succeeded."),
    name: z.string().optional().describe("The MCP server the login was for, where reported."),
    error: z.string().optional().describe("Why the login failed; absent on success."),
  }),
  "model.rerouted": z.object({
    fromModel: z.string().describe("The model the turn was meant to run on."),
    toModel: z.string().describe("The model it runs on instead."),
    reason: z.string().describe("Why the provider switched, as it says."),
  }),
  "config.warning": z.object({
    summary: z.string().describe("The problem in one line."),
    details: z.string().optional().describe("More about the problem, where the provider says more."),
    path: z.string().optional().describe("The configuration file concerned, where known."),
    range: z
      .unknown()
      .optional()
      .describe(providerShaped("Where in the file the problem is (start and end positions)")),
  }),
  "deprecation.notice": z.object({
    summary: z.string().describe("What is deprecated, in one line."),
    details: z
      .string()
      .optional()
      .describe("More about it (what to use instead, when it goes), where given."),
  }),
  "files.persisted": z.object({
    files: z
      .array(
        z
          .object({
            filename: z.string().describe("The file's name or path as the provider gave it."),
            fileId: z.string().describe("The id the provider stored it under."),
          })
          .describe("A file that was saved."),
      )
      .describe("The files saved."),
    failed: z
      .array(
        z
          .object({
            filename: z.string().describe("The file's name or path as the provider gave it."),
            error: z.string().describe("Why saving it failed."),
          })
          .describe("A file that could not be saved."),
      )
      .optional()
      .describe("The files that could not be saved; absent where none failed."),
  }),
  "runtime.warning": z.object({
    message: z
      .string()
      .describe('What happened, in a sentence a user can read (e.g. `unknown notification "x/y"`).'),
    detail: z
      .unknown()
      .optional()
      .describe(
        'Machine-readable detail: for the runtime\'s own warnings `{reason: "unknown-kind" | "malformed-record", kind}`; otherwise the native data behind the warning (e.g. the notification\'s params).',
      ),
  }),
  "runtime.error": z.object({
    message: z.string().describe("The error in a sentence a user can read."),
    class: RuntimeErrorClass.optional(),
    detail: z
      .unknown()
      .optional()
      .describe(
        providerShaped(
          "The native error (codes, retry hints, the provider's error info), where there is one",
        ),
      ),
  }),

  /** Extension (DESIGN §2): a known native message that no canonical family fits. Not a warning. */
  "provider.event": z.object({
    name: z
      .string()
      .describe(
        "The native message's name (its method, type or subtype), or `native-state` for a native state report that the turn/request lifecycle overrode.",
      ),
    summary: z
      .string()
      .optional()
      .describe("What it said, in a short readable line, where there is something to say."),
  }),
} as const;
