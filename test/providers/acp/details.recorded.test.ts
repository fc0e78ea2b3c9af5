import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { replayTranscript } from "../../../src/kit/replay.js";
import { acpDefinition, cursorAcpDefinition } from "../../../src/providers/acp/definition.js";
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
  it("codex-acp: the command and cwd from rawInput, the output and exit code from _meta (terminal_output_delta / terminal_exit)", () => {
    const cwd = "/tmp/acp-codex-acp-shell-accepted-GQ7DXV/project";
    const list = items("codex-acp-shell-accepted.jsonl", "command_execution");
    const start = list[0] as ItemEvent;
    expect(start.type).toBe("item.started");
    expect(start.payload.title).toBe(SHELL);
    // codex-acp 2.x sends the command as Codex's app server has it: a string, no shell wrapper, no duration.
    expect(start.payload.details).toEqual({ command: SHELL, cwd });
    const end = completed(list);
    expect(end.payload.status).toBe("completed");
    expect(end.payload.details).toEqual({ command: SHELL, cwd, exitCode: 0 });
    const output = replayTranscript(acpDefinition, readFixtureLines("codex-acp-shell-accepted.jsonl"), "d")
      .filter((event) => event.type === "content.delta" && event.payload.streamKind === "command_output")
      .map((event) => (event.type === "content.delta" ? event.payload.delta : ""));
    expect(output).toEqual(["mock-shell-output\n"]);
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

  it.each(["claude-agent-acp", "codex-acp"])(
    "%s shell-declined: the failed item keeps its command",
    (agent) => {
      const end = completed(items(`${agent}-shell-declined.jsonl`, "command_execution"));
      expect(end.payload.status).toBe("failed");
      expect(end.payload.details).toMatchObject({ command: SHELL });
      expect(end.payload.details).not.toHaveProperty("exitCode");
    },
  );

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
    const path = "/tmp/acp-codex-acp-edit-HIwRiE/project/mock-edit.txt";
    const list = items("codex-acp-edit.jsonl", "file_change");
    for (const event of list) {
      expect(event.payload.title).toBe(path);
      expect(event.payload.details).toEqual({ changes: [{ path, kind: "add", diff: diff(path) }] });
    }
    expect(completed(list).payload.status).toBe("completed");
  });

  it("claude-agent-acp: the diff content (oldText null → add) once the update carries it", () => {
    // claude-agent-acp 0.101 names the file as the model wrote it (relative to the cwd here).
    const path = "mock-edit.txt";
    const list = items("claude-agent-acp-edit.jsonl", "file_change");
    // Opened with empty content and locations: no change known yet.
    expect(list[0]?.payload.title).toBe("Preparing file…");
    expect(list[0]?.payload.details).toBeUndefined();
    const end = completed(list);
    expect(end.payload.title).toBe(path);
    expect(end.payload.details).toEqual({
      changes: [
        {
          path,
          kind: "add",
          diff: "--- /dev/null\n+++ b/mock-edit.txt\n@@ -0,0 +1,1 @@\n+written by the mock model\n",
        },
      ],
    });
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
