import type { TokenUsage } from "../../contracts/payloads.js";
import { asObject, idKey, type JsonObject, num, str } from "../../kit/guards.js";

/**
 * Tolerant readers for EventMsg payloads. Codex renamed fields across versions (snake_case in the core protocol,
 * camelCase in some later events), so each reader takes every spelling the real versions used.
 */
export function pick(payload: JsonObject, ...names: string[]): unknown {
  for (const name of names) {
    const value = payload[name];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

export function pickStr(payload: JsonObject, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = str(payload[name]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A native id (string or number) under any of the names. */
export function pickId(payload: JsonObject, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = idKey(payload[name]);
    if (value !== undefined) return value;
  }
  return undefined;
}

export function pickObj(payload: JsonObject, ...names: string[]): JsonObject | undefined {
  return asObject(pick(payload, ...names));
}

/** The call id that pairs begin/end events. */
export function callIdOf(payload: JsonObject): string | undefined {
  return pickId(payload, "call_id", "callId", "id");
}

/** A command as Codex sends it: an argv array or a string. */
export function commandText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => typeof part === "string")) return value.join(" ");
  return undefined;
}

/** `exec_command_output_delta.chunk` is base64 of raw bytes; decoded as UTF-8 without Node built-ins. */
export function decodeChunk(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const binary = atob(value);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  } catch {
    return value;
  }
}

/** Codex's TokenUsage (snake_case) in the canonical vocabulary. */
export function tokenUsageOf(value: unknown): TokenUsage | undefined {
  const usage = asObject(value);
  if (usage === undefined) return undefined;
  const out: TokenUsage = {};
  const set = (key: keyof TokenUsage, ...names: string[]) => {
    for (const name of names) {
      const n = num(usage[name]);
      if (n !== undefined) {
        out[key] = n;
        return;
      }
    }
  };
  set("inputTokens", "input_tokens", "inputTokens");
  set("cachedInputTokens", "cached_input_tokens", "cachedInputTokens");
  set("cacheWriteTokens", "cache_write_input_tokens", "cacheWriteInputTokens");
  set("outputTokens", "output_tokens", "outputTokens");
  set("reasoningOutputTokens", "reasoning_output_tokens", "reasoningOutputTokens");
  set("totalTokens", "total_tokens", "totalTokens");
  return out;
}

/** Text of a TurnItem's content parts (`[{type:"text"|"Text", text}]`) or of a plain string. */
export function contentText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return undefined;
  const parts: string[] = [];
  for (const part of value) {
    const text = typeof part === "string" ? part : str(asObject(part)?.text);
    if (text !== undefined) parts.push(text);
  }
  return parts.length > 0 ? parts.join("") : undefined;
}

/** A payload without its `type` tag, for `data`/`config` fields. */
export function withoutType(payload: JsonObject): JsonObject {
  const { type: _type, ...rest } = payload;
  return rest;
}

/** A record's own time (rollout `timestamp`), when it is a non-empty string; else the clock decides. */
export function timestampOf(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
