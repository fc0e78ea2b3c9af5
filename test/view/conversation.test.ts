import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { ConversationRenderer } from "../../src/view/conversation.js";

const REPO = join(import.meta.dirname, "../..");
const conversation = (path: string): string => {
  const renderer = new ConversationRenderer({ color: false });
  return readFileSync(join(REPO, path), "utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => renderer.render(JSON.parse(line) as RuntimeEvent))
    .join("\n");
};

describe("the conversation view of chat", () => {
  it("a Codex edit: the file and its diff, the answer, the turn's end; no protocol line", () => {
    const text = conversation("test/fixtures/codex/edit.expected.jsonl");
    expect(text).toMatch(/^edited (add|update) \S+/m);
    expect(text).toMatch(/^ {4}\+.*written by the mock model/m);
    expect(text).toMatch(/^── turn completed/m);
    expect(text).not.toMatch(/session\.|thread\.|provider\.event|content\.delta/);
  });

  it("a Claude subagent: its start and end around the answer", () => {
    const text = conversation("test/fixtures/claude/subagent.expected.jsonl");
    expect(text).toMatch(/^subagent started: .*Mock subagent/m);
    expect(text).toMatch(/^subagent completed/m);
  });

  it("an agent's control characters are shown escaped, never sent to the terminal", () => {
    // hand-written: a real event's envelope with a hostile message (no mock turn emits these characters)
    const [first] = readFileSync(join(REPO, "test/fixtures/codex/edit.expected.jsonl"), "utf8").split("\n");
    const envelope = JSON.parse(first ?? "{}") as RuntimeEvent;
    const hostile = {
      ...envelope,
      type: "runtime.error",
      payload: { message: "a\u001b]0;title\u0007b\rc\u202ed" },
    };
    const [line] = new ConversationRenderer({ color: false }).render(hostile as RuntimeEvent);
    expect(line).toBe("error: a\\e]0;title\\x07b\\rc\\u202ed");
  });
});
