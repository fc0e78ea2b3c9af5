import type { RuntimeEvent } from "../contracts/events.js";
import type { MapperDefinition } from "./mapper.js";
import { parseTranscriptLine } from "./transcript.js";

/**
 * Maps a whole transcript with a fresh mapper, then `finish()`: what `normalize` does, as events in memory.
 * `transcript` is JSONL text or its lines, in any accepted line format.
 */
export function replayTranscript(
  definition: Pick<MapperDefinition, "create">,
  transcript: string | readonly string[],
  sessionId: string,
): RuntimeEvent[] {
  const lines = typeof transcript === "string" ? transcript.split("\n") : transcript;
  const mapper = definition.create({ sessionId });
  const events: RuntimeEvent[] = [];
  lines.forEach((line, index) => {
    const entry = parseTranscriptLine(line, index + 1);
    if (entry !== undefined) events.push(...mapper.map(entry));
  });
  events.push(...mapper.finish());
  return events;
}
