import type { ProviderKind } from "../contracts/enums.js";
import type { RuntimeEventType } from "../contracts/event-types.js";
import type { RuntimeEvent } from "../contracts/events.js";
import type { TranscriptEntry } from "./transcript.js";

/** The `--from` names of `normalize`. */
export const SOURCE_NAMES = [
  "codex-app-server",
  "codex-eventmsg",
  "codex-rollout",
  "codex-sdk",
  "claude-sdk",
  "claude-code",
  "acp",
  "cursor-acp",
] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

export interface MapperOptions {
  sessionId: string;
  /** Time for records without a timestamp. Injected: mappers read no clock of their own. */
  clock?: () => string;
  /** Cap of each correlation table. */
  maxOpenEntries?: number;
  /** The sequence of the session's last event so far (a resumed session goes on from it); default 0. */
  sequenceAfter?: number | undefined;
}

/** A small state machine per session: native records in, canonical events out. Never throws. */
export interface RuntimeMapper {
  readonly source: SourceName;
  map(entry: TranscriptEntry): RuntimeEvent[];
  /** End of input: events that close what the input left open (none by default for replays). */
  finish(): RuntimeEvent[];
}

export interface CoverageKind {
  group: string;
  kind: string;
  yields: RuntimeEventType[];
  note?: string;
}

export interface SourceCoverage {
  package: string;
  version: string;
  kinds: CoverageKind[];
  unhandled: string[];
}

export interface MapperDefinition {
  source: SourceName;
  provider: ProviderKind;
  create(options: MapperOptions): RuntimeMapper;
  /** The mapper's handler table as coverage rows. */
  coverage(): SourceCoverage;
}

/** Replays without timestamps get this fixed time, so normalize output stays byte-identical. */
export const REPLAY_EPOCH = "1970-01-01T00:00:00.000Z";
export const fixedClock = (): string => REPLAY_EPOCH;
