import type { RuntimeEvent } from "../../contracts/events.js";
import { replayTranscript } from "../../kit/replay.js";
import { codexSdkDefinition } from "./definition.js";

/** Maps a whole transcript (any accepted line format) to canonical events, as `normalize --from codex-sdk` does. */
export function replayCodexSdkTranscript(text: string, sessionId: string): RuntimeEvent[] {
  return replayTranscript(codexSdkDefinition, text, sessionId);
}
