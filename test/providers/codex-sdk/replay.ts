import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { replayTranscript } from "../../../src/kit/replay.js";
import { codexSdkDefinition } from "../../../src/providers/codex-sdk/definition.js";

/** Maps a whole transcript (any accepted line format) to canonical events, as `normalize --from codex-sdk` does. */
export function replayCodexSdkTranscript(text: string, sessionId: string): RuntimeEvent[] {
  return replayTranscript(codexSdkDefinition, text, sessionId);
}
