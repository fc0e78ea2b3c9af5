import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../contracts/events.js";
import { replayTranscript } from "../../kit/replay.js";
import { acpDefinition, cursorAcpDefinition } from "./definition.js";
import { readFixtureLines } from "./fixture-replay.js";

/** Item details on the recorded fixtures, field by field (DESIGN.md §2: a host renders from details alone). */

type ItemEvent = Extract<RuntimeEvent, { type: "item.started" | "item.updated" | "item.completed" }>;

function items(name: string, itemType: string, cursor = false): ItemEvent[] {
  const events = replayTranscript(cursor ? cursorAcpDefinition : acpDefinition, readFixtureLines(name), "d");
  return events.filter(
    (event): event is ItemEvent =>
      (event.type === "item.started" || event.type === "item.updated" || event.type === "item.completed") &&
      event.payload.itemType === itemType,
  );
}

function completed(list: ItemEvent[]): ItemEvent {
  const done = list.filter((event) => event.type === "item.completed");
  expect(done).toHaveLength(1);
  return done[0] as ItemEvent;
}

const SHELL = "echo mock-shell-output | tee /dev/null";

describe("command_execution details", () => {
  it("codex-acp: Codex's argv unwrapped, the wrapper in shell, cwd, exit code and duration from rawOutput", () => {
    const list = items("codex-acp-shell-accepted.jsonl", "command_execution");
    const start = list[0] as ItemEvent;
    expect(start.type).toBe("item.started");
    expect(start.payload.title).toBe(SHELL);
    expect(start.payload.details).toEqual({
      command: SHELL,
      shell: "/bin/bash -lc",
      cwd: "/tmp/acp-codex-acp-shell-accepted-WZK9il/project",
    });
    const end = completed(list);
    // The recording's command did run and failed: Codex's sandbox launcher panicked (no bwrap) with exit 101.
    expect(end.payload.status).toBe("failed");
    expect(end.payload.title).toBe(SHELL);
    expect(end.payload.details).toEqual({
      command: SHELL,
      shell: "/bin/bash -lc",
      cwd: "/tmp/acp-codex-acp-shell-accepted-WZK9il/project",
      exitCode: 101,
      durationMs: 389.189649,
    });
  });

  it("claude-agent-acp: the command string as sent; no shell, cwd, exit code or duration", () => {
    const list = items("claude-agent-acp-shell-accepted.jsonl", "command_execution");
    // The first record is `rawInput: {}` titled "Terminal": no command yet, so no details and the native title.
    expect(list[0]?.type).toBe("item.started");
    expect(list[0]?.payload.title).toBe("Terminal");
    expect(list[0]?.payload.details).toBeUndefined();
    const end = completed(list);
    expect(end.payload.status).toBe("completed");
    expect(end.payload.title).toBe(SHELL);
    // Claude's Bash input is `{command, description}`: no cwd. Its adapter reports an exit code only in
    // `_meta.terminal_exit`, sent only to clients advertising `_meta.terminal_output` (ours does not); its
    // rawOutput is the output text. So exitCode and durationMs stay absent.
    expect(end.payload.details).toEqual({ command: SHELL });
  });

  // codex-acp's declined recording has no tool item at all: it asks permission before announcing the tool.
  it("claude-agent-acp shell-declined: the failed item keeps its command", () => {
    const end = completed(items("claude-agent-acp-shell-declined.jsonl", "command_execution"));
    expect(end.payload.status).toBe("failed");
    expect(end.payload.details).toEqual({ command: SHELL });
  });

  it("codex-acp multi-turn: a tool the turn ended first still carries what its start said", () => {
    const end = completed(items("codex-acp-multi-turn.jsonl", "command_execution"));
    expect(end.payload.detail).toBe("the turn ended before the tool call did");
    expect(end.payload.details).toEqual({
      command: SHELL,
      shell: "/bin/bash -lc",
      cwd: "/tmp/acp-codex-acp-multi-turn-zIXtgM/project",
    });
  });

  it("Cursor (hand-written): the command from rawInput, the exit code from rawOutput.exitCode", () => {
    const end = completed(items("cursor-hand-written-extensions.jsonl", "command_execution", true));
    expect(end.payload.title).toBe("ls");
    expect(end.payload.details).toEqual({ command: "ls", exitCode: 1 });
  });
});

describe("file_change details", () => {
  const diff = (path: string) =>
    `--- /dev/null\n+++ b/${path.slice(1)}\n@@ -0,0 +1,1 @@\n+written by the mock model\n`;

  it("codex-acp: the path in title and details (not only in data.locations), kind add, the diff", () => {
    const path = "/tmp/acp-codex-acp-edit-e28FdX/project/mock-edit.txt";
    const list = items("codex-acp-edit.jsonl", "file_change");
    for (const event of list) {
      expect(event.payload.title).toBe(path);
      expect(event.payload.details).toEqual({ changes: [{ path, kind: "add", diff: diff(path) }] });
    }
    expect(completed(list).payload.status).toBe("completed");
  });

  it("claude-agent-acp: the diff content (oldText null → add) once the update carries it", () => {
    const path = "/tmp/acp-claude-agent-acp-edit-WZZ7hX/project/mock-edit.txt";
    const list = items("claude-agent-acp-edit.jsonl", "file_change");
    // Opened with empty content and locations: no change known yet.
    expect(list[0]?.payload.title).toBe("Write");
    expect(list[0]?.payload.details).toBeUndefined();
    const end = completed(list);
    expect(end.payload.title).toBe(path);
    expect(end.payload.details).toEqual({ changes: [{ path, kind: "add", diff: diff(path) }] });
  });
});

describe("text details", () => {
  it("the prompt is whole: user_message details.text; streamed answers have none", () => {
    const user = items("claude-agent-acp-text.jsonl", "user_message");
    expect(user.map((event) => event.payload.details)).toEqual([
      { text: "mock:text say hello" },
      { text: "mock:text say hello" },
    ]);
    for (const agent of ["claude-agent-acp", "codex-acp"]) {
      for (const itemType of ["assistant_message", "reasoning"]) {
        for (const event of items(`${agent}-reasoning.jsonl`, itemType)) {
          expect(event.payload.details).toBeUndefined();
        }
      }
    }
  });
});
