import type { RuntimeEvent } from "../../contracts/events.js";
import { parseTranscriptLine } from "../../kit/transcript.js";
import { CodexSdkMapper } from "./mapper.js";

/** Maps a whole transcript (any accepted line format) to canonical events, as `normalize --from codex-sdk` does. */
export function replayCodexSdkTranscript(text: string, sessionId: string): RuntimeEvent[] {
  const mapper = new CodexSdkMapper({ sessionId });
  const events: RuntimeEvent[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const entry = parseTranscriptLine(lines[index] ?? "", index + 1);
    if (entry !== undefined) events.push(...mapper.map(entry));
  }
  events.push(...mapper.finish());
  return events;
}
