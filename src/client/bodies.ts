import type { ErrorBody, Health, SessionSummary } from "../api/schemas.js";

/**
 * Shape checks of the server's JSON bodies (src/api/schemas.ts). The client takes only the schemas' types and
 * checks the fields it relies on by hand: the zod schemas themselves would make zod most of a browser bundle
 * that is otherwise a few kilobytes.
 */

/** `EVENTS_PAGE_LIMIT` of src/api/schemas.ts (a test keeps the two equal). */
export const PAGE_LIMIT = 1_000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const optionalString = (value: unknown) => value === undefined || typeof value === "string";

export function healthOf(json: unknown): Health | undefined {
  return isObject(json) && typeof json.ok === "boolean" && typeof json.version === "string"
    ? (json as Health)
    : undefined;
}

export function errorBodyOf(json: unknown): ErrorBody | undefined {
  return isObject(json) && typeof json.error === "string" && optionalString(json.field)
    ? (json as ErrorBody)
    : undefined;
}

export function sessionSummaryOf(json: unknown): SessionSummary | undefined {
  if (!isObject(json)) return undefined;
  const { id, provider, state, createdAt, lastSequence, openRequests } = json;
  const ok =
    typeof id === "string" &&
    typeof provider === "string" &&
    typeof state === "string" &&
    typeof createdAt === "string" &&
    isCount(lastSequence) &&
    isCount(openRequests) &&
    optionalString(json.title);
  return ok ? (json as SessionSummary) : undefined;
}

export function sessionListOf(json: unknown): SessionSummary[] | undefined {
  if (!isObject(json) || !Array.isArray(json.sessions)) return undefined;
  const sessions = json.sessions.map(sessionSummaryOf);
  return sessions.every((s) => s !== undefined) ? (sessions as SessionSummary[]) : undefined;
}

export function sessionPageOf(json: unknown): { sessions: SessionSummary[]; next?: string } | undefined {
  const sessions = sessionListOf(json);
  if (sessions === undefined || !isObject(json)) return undefined;
  const next = json.next;
  if (next !== undefined && next !== null && typeof next !== "string") return undefined;
  return typeof next === "string" ? { sessions, next } : { sessions };
}

export { isCount, isObject };
