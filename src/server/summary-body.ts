import type { SessionSummary } from "../api/schemas.js";
import type { SessionRecord } from "../store/types.js";

/** A registry record as the API shows it: no native state paths, no cluster bookkeeping. */
export function summaryBody(record: SessionRecord): SessionSummary {
  return {
    id: record.id,
    provider: record.provider,
    origin: record.origin,
    state: record.state,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    lastSequence: record.lastSequence,
    openRequests: record.openRequests,
    exited: record.exited,
    ...(record.cwd === undefined ? {} : { cwd: record.cwd }),
    ...(record.model === undefined ? {} : { model: record.model }),
    ...(record.title === undefined ? {} : { title: record.title }),
    ...(record.parentId === undefined ? {} : { parentId: record.parentId }),
    ...(record.archived === true ? { archived: true } : {}),
  };
}
