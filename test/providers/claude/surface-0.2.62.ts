/**
 * The SDKMessage kinds of `@anthropic-ai/claude-agent-sdk` 0.2.62, the spec's version (not installed). Its
 * sdk.d.ts references SDKRateLimitEvent and SDKPromptSuggestionMessage without declaring them, so these two were
 * read from the runtime literals of its cli.js; the real type of the first is `rate_limit_event`.
 */
export const CLAUDE_0_2_62_KINDS = [
  "assistant",
  "user",
  "result:success",
  "result:error_during_execution",
  "result:error_max_turns",
  "result:error_max_budget_usd",
  "result:error_max_structured_output_retries",
  "system:init",
  "stream_event",
  "system:compact_boundary",
  "system:status",
  "system:hook_started",
  "system:hook_progress",
  "system:hook_response",
  "tool_progress",
  "auth_status",
  "system:task_notification",
  "system:task_started",
  "system:task_progress",
  "system:files_persisted",
  "tool_use_summary",
  "rate_limit_event",
  "prompt_suggestion",
] as const;
