import type { RuntimeEvent } from "../../contracts/events.js";
import { replayTranscript } from "../../kit/replay.js";
import { codexAppServerDefinition } from "./definition.js";

/** Maps a whole app-server transcript (JSONL text) with a fresh mapper: what `normalize` does, for tests. */
export function replayCodexAppServer(text: string, sessionId = "replay"): RuntimeEvent[] {
  return replayTranscript(codexAppServerDefinition, text, sessionId);
}
