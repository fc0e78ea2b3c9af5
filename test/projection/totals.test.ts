import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { projectEvents } from "../../src/projection/reducer.js";

const REPO = join(import.meta.dirname, "../..");
const stream = (path: string): RuntimeEvent[] =>
  readFileSync(join(REPO, path), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RuntimeEvent);

describe("the thread view's totals", () => {
  it("Claude (usage per turn only, cost per process so far): the turns' tokens added up, the last cost", () => {
    const events = stream("test/fixtures/claude/multi-turn.expected.jsonl");
    const turns = events.filter((e) => e.type === "turn.completed");
    expect(events.some((e) => e.type === "thread.token-usage.updated")).toBe(false);
    const view = projectEvents(events);
    expect(view.tokenUsage).toBeUndefined();
    const sum = turns.reduce(
      (n, e) => n + ((e.payload as { usage?: { totalTokens?: number } }).usage?.totalTokens ?? 0),
      0,
    );
    expect(sum).toBeGreaterThan(0);
    expect(view.totals).toEqual({ tokens: sum, costUsd: 0.142671 });
  });

  it("Codex (a running thread total): that total, not the turns added to it again", () => {
    const events = stream("test/fixtures/codex/multi-turn.expected.jsonl");
    const view = projectEvents(events);
    expect(view.totals?.tokens).toBe(view.tokenUsage?.total.totalTokens);
    expect(view.totals?.tokens).toBe(29_324);
    expect(view.totals?.costUsd).toBeUndefined();
  });

  it("a second agent process (a resume) adds its cost to what the first one reported", () => {
    const events = stream("test/fixtures/claude/multi-turn.expected.jsonl");
    const started = events.filter((e) => e.type === "session.started");
    const again = [...events, ...started, ...events.filter((e) => e.type === "turn.completed").slice(0, 1)];
    expect(projectEvents(again).totals?.costUsd).toBeCloseTo(0.142671 + 0.047202, 9);
  });
});
