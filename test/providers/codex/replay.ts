import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { replayTranscript } from "../../../src/kit/replay.js";
import { codexAppServerDefinition } from "../../../src/providers/codex/definition.js";

/** Maps a whole app-server transcript (JSONL text) with a fresh mapper: what `normalize` does, for tests. */
export function replayCodexAppServer(text: string, sessionId = "replay"): RuntimeEvent[] {
  return replayTranscript(codexAppServerDefinition, text, sessionId);
}
