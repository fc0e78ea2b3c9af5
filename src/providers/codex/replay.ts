import type { RuntimeEvent } from "../../contracts/events.js";
import { parseTranscriptLine } from "../../kit/transcript.js";
import { CodexAppServerMapper } from "./app-server-mapper.js";

/** Maps a whole app-server transcript (JSONL text) with a fresh mapper: what `normalize` does, for tests. */
export function replayCodexAppServer(text: string, sessionId = "replay"): RuntimeEvent[] {
  const mapper = new CodexAppServerMapper({ sessionId });
  const events: RuntimeEvent[] = [];
  text.split("\n").forEach((line, index) => {
    const entry = parseTranscriptLine(line, index + 1);
    if (entry !== undefined) events.push(...mapper.map(entry));
  });
  events.push(...mapper.finish());
  return events;
}
