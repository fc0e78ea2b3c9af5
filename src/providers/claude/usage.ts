import type { TokenUsage } from "../../contracts/payloads.js";
import { asObject, isObject, num } from "../../kit/guards.js";

/** Anthropic usage (`input_tokens`, `cache_read_input_tokens`, ...) → the canonical TokenUsage. */
export function tokenUsageOf(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const usage: TokenUsage = {};
  const input = num(value.input_tokens);
  const cached = num(value.cache_read_input_tokens);
  const cacheWrite = num(value.cache_creation_input_tokens);
  const output = num(value.output_tokens);
  const reasoning = num(asObject(value.output_tokens_details)?.thinking_tokens);
  if (input !== undefined) usage.inputTokens = input;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  if (output !== undefined) usage.outputTokens = output;
  if (reasoning !== undefined) usage.reasoningOutputTokens = reasoning;
  const parts = [input, cached, cacheWrite, output].filter((n): n is number => n !== undefined);
  if (parts.length === 0) return undefined;
  usage.totalTokens = parts.reduce((a, b) => a + b, 0);
  return usage;
}
