import type { TokenUsage } from "../../contracts/payloads.js";
import { isObject, num } from "../../kit/guards.js";

/**
 * The SDK's `Usage` in canonical names. Fields the record lacks stay absent (older exec, e.g. 0.46, has no
 * `cache_write_input_tokens` or `reasoning_output_tokens`).
 */
export function tokenUsageOf(usage: unknown): TokenUsage | undefined {
  if (!isObject(usage)) return undefined;
  const out: TokenUsage = {};
  const input = num(usage.input_tokens);
  const cached = num(usage.cached_input_tokens);
  const cacheWrite = num(usage.cache_write_input_tokens);
  const output = num(usage.output_tokens);
  const reasoning = num(usage.reasoning_output_tokens);
  if (input !== undefined) out.inputTokens = input;
  if (cached !== undefined) out.cachedInputTokens = cached;
  if (cacheWrite !== undefined) out.cacheWriteTokens = cacheWrite;
  if (output !== undefined) out.outputTokens = output;
  if (reasoning !== undefined) out.reasoningOutputTokens = reasoning;
  if (input !== undefined && output !== undefined) out.totalTokens = input + output;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `after - before` per field, when both are known and the result is not negative. */
export function usageDifference(after: TokenUsage, before: TokenUsage | undefined): TokenUsage | undefined {
  if (before === undefined) return undefined;
  const out: TokenUsage = {};
  for (const key of Object.keys(after) as Array<keyof TokenUsage>) {
    const a = after[key];
    const b = before[key];
    if (a === undefined || b === undefined || a < b) return undefined;
    out[key] = a - b;
  }
  return out;
}
