import type { ModelApi } from "./scenarios.js";

/** Error bodies shaped as each provider's API shapes them, so the agents' own error handling runs. */
export function providerErrorBody(api: ModelApi, status: number, message: string): Record<string, unknown> {
  if (api === "anthropic-messages") {
    return { type: "error", error: { type: anthropicErrorType(status), message }, request_id: "req_mock" };
  }
  return { error: { message, type: openaiErrorType(status), param: null, code: openaiErrorCode(status) } };
}

function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 503:
    case 529:
      return "overloaded_error";
    default:
      return "api_error";
  }
}

function openaiErrorType(status: number): string {
  if (status === 429) return "requests";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function openaiErrorCode(status: number): string | null {
  if (status === 429) return "rate_limit_exceeded";
  if (status === 404) return "not_found";
  return null;
}
