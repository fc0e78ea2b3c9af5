import type { SessionState } from "../contracts/enums.js";
import type { SessionPatch, SessionRecord } from "./types.js";

/** A `sessions` row: scalar fields as columns, nested ones (`agent`, `native`, `importedFrom`, `owner`) as JSON. */
export interface SessionRow {
  id: string;
  provider: string;
  origin: string;
  created_at: string;
  updated_at: string;
  cwd: string | null;
  model: string | null;
  agent: string | null;
  native: string | null;
  state: string;
  last_sequence: number;
  open_requests: number;
  title: string | null;
  exited: number;
  imported_from: string | null;
  owner: string | null;
  parent_id: string | null;
  archived: number;
}

export const SESSION_COLUMNS =
  "id, provider, origin, created_at, updated_at, cwd, model, agent, native, state, last_sequence, open_requests, title, exited, imported_from, owner, parent_id, archived";
export const SESSION_PARAMS =
  "@id, @provider, @origin, @created_at, @updated_at, @cwd, @model, @agent, @native, @state, @last_sequence, @open_requests, @title, @exited, @imported_from, @owner, @parent_id, @archived";

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

export function toRow(record: SessionRecord): SessionRow {
  return {
    id: record.id,
    provider: record.provider,
    origin: record.origin,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    cwd: record.cwd ?? null,
    model: record.model ?? null,
    agent: json(record.agent),
    native: json(record.native),
    state: record.state,
    last_sequence: record.lastSequence,
    open_requests: record.openRequests,
    title: record.title ?? null,
    exited: record.exited ? 1 : 0,
    imported_from: json(record.importedFrom),
    owner: json(record.owner),
    parent_id: record.parentId ?? null,
    archived: record.archived === true ? 1 : 0,
  };
}

/** The record in the interface's field order; absent optional fields stay absent (not `undefined`). */
export function fromRow(row: SessionRow): SessionRecord {
  const record: SessionRecord = {
    id: row.id,
    provider: row.provider,
    origin: row.origin === "import" ? "import" : "live",
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    state: row.state as SessionState,
    lastSequence: row.last_sequence,
    openRequests: row.open_requests,
    exited: row.exited !== 0,
  };
  if (row.cwd !== null) record.cwd = row.cwd;
  if (row.model !== null) record.model = row.model;
  if (row.agent !== null) record.agent = JSON.parse(row.agent) as string[];
  if (row.native !== null) record.native = JSON.parse(row.native) as NonNullable<SessionRecord["native"]>;
  if (row.title !== null) record.title = row.title;
  if (row.imported_from !== null)
    record.importedFrom = JSON.parse(row.imported_from) as NonNullable<SessionRecord["importedFrom"]>;
  if (row.owner !== null) record.owner = JSON.parse(row.owner) as NonNullable<SessionRecord["owner"]>;
  if (row.parent_id !== null) record.parentId = row.parent_id;
  if (row.archived !== 0) record.archived = true;
  return record;
}

/** The record with the patch's present fields laid over it (a field given as `undefined` is left as it was; `id` and `createdAt` never change). */
export function applyPatch(record: SessionRecord, patch: SessionPatch): SessionRecord {
  const next: Record<string, unknown> = { ...record };
  for (const [key, value] of Object.entries(patch))
    if (value !== undefined && key !== "id" && key !== "createdAt") next[key] = value;
  return next as unknown as SessionRecord;
}
