import type { RuntimeEvent } from "../contracts/events.js";
import { readLines } from "../node/line-source.js";

export type CanonicalLine = { kind: "event"; value: unknown } | { kind: "unparsable"; reason: string };

/** Canonical JSONL lines, parsed one at a time. */
export async function* readCanonical(
  file: string | undefined,
  stdin: NodeJS.ReadableStream,
): AsyncGenerator<CanonicalLine> {
  for await (const line of readLines(file, stdin)) {
    if (line.trim().length === 0) continue;
    try {
      yield { kind: "event", value: JSON.parse(line) };
    } catch (error) {
      yield { kind: "unparsable", reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** Only the lines that look like events (project and view are lenient; verify is the strict one). */
export async function* readEvents(
  file: string | undefined,
  stdin: NodeJS.ReadableStream,
): AsyncGenerator<RuntimeEvent> {
  for await (const line of readCanonical(file, stdin)) {
    const value = line.kind === "event" ? (line.value as Partial<RuntimeEvent> | null) : null;
    if (
      value &&
      typeof value.type === "string" &&
      typeof value.payload === "object" &&
      value.payload !== null
    ) {
      yield value as RuntimeEvent;
    }
  }
}
