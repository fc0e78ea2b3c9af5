import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { replayTranscript } from "../../../src/kit/replay.js";
import { findMapperDefinition } from "../../../src/mappers/registry.js";
import { verifyEvents } from "../../../src/verify/index.js";

const REAL_FILE = "/work/shared/fixtures/real/claude-code-session-2.1.38-spotter.jsonl";
const definition = findMapperDefinition("claude-code");

describe("a Claude Code session file beginning with summary records (no timestamp)", () => {
  it("their events take the first real record's time, not 1970; the stream verifies", () => {
    if (definition === undefined) throw new Error("no claude-code mapper");
    const real = readFileSync(REAL_FILE, "utf8").split("\n").filter(Boolean).slice(0, 40);
    // the first record's time (a file-history snapshot keeps it inside `snapshot`)
    const first = /"timestamp":"([^"]+)"/.exec(real[0] ?? "")?.[1] ?? "";
    // hand-written, in the shape Claude Code writes at the head of a continued session
    const summaries = [
      JSON.stringify({
        type: "summary",
        summary: "Fixing the build",
        leafUuid: "11111111-1111-4111-8111-111111111111",
      }),
      JSON.stringify({
        type: "summary",
        summary: "Adding tests",
        leafUuid: "22222222-2222-4222-8222-222222222222",
      }),
    ];
    const events = replayTranscript(definition, [...summaries, ...real], "s1");
    expect(events.length).toBeGreaterThan(summaries.length);
    expect(events.filter((event) => event.createdAt < "2000")).toEqual([]);
    expect(events[0]?.createdAt).toBe(new Date(first).toISOString());
    expect(verifyEvents(events)).toEqual([]);
  });
});
