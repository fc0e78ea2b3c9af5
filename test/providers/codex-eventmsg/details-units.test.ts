import { describe, expect, it } from "vitest";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { applyPatchChanges } from "../../../src/providers/codex-eventmsg/apply-patch.js";
import { codexEventMsgDefinition } from "../../../src/providers/codex-eventmsg/definition.js";
import {
  commandPatch,
  fileChangesPatch,
  mcpPatch,
  webSearchPatch,
} from "../../../src/providers/codex-eventmsg/details.js";
import { callPatch, outputOf } from "../../../src/providers/codex-eventmsg/rollout-calls.js";
import { replay } from "./replay.js";

describe("apply_patch input: paths and kinds from the file headers", () => {
  it("add (exact diff from its + lines), update, move, delete, in the patch's order; CRLF lines too", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# Title",
      "+body",
      "*** Update File: src/a.ts",
      "@@ function a",
      "-old",
      "+new",
      "*** Update File: src/b.ts",
      "*** Move to: src/c.ts",
      "@@",
      " same",
      "*** Delete File: gone.txt",
      "*** End Patch",
    ].join("\r\n");
    expect(applyPatchChanges(patch)).toEqual([
      {
        path: "docs/new.md",
        kind: "add",
        diff: "--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+# Title\n+body\n",
      },
      { path: "src/a.ts", kind: "update" },
      { path: "src/b.ts", kind: "move", movePath: "src/c.ts" },
      { path: "gone.txt", kind: "delete" },
    ]);
  });

  it("no file headers, no changes; an empty path is skipped", () => {
    expect(applyPatchChanges("*** Begin Patch\n*** End Patch\n")).toEqual([]);
    expect(applyPatchChanges("*** Add File: \n+x\n")).toEqual([]);
  });
});

describe("EventMsg changes map", () => {
  it("delete: its content as a diff to empty text; update with move_path: a move, header from both paths", () => {
    const patch = fileChangesPatch({
      "/w/old.txt": { type: "delete", content: "bye\n" },
      "/w/a.txt": { type: "update", unified_diff: "@@ -1 +1 @@\n-a\n+b\n", move_path: "/w/b.txt" },
      "/w/c.txt": {
        type: "update",
        unified_diff: "--- a/c\n+++ b/c\n@@ -1 +1 @@\n-a\n+b\n",
        move_path: null,
      },
      "/w/empty.txt": { type: "add", content: "" },
      "/w/odd.txt": { type: "rename" },
      "/w/bad.txt": 42,
    });
    expect(patch.changes).toEqual([
      { path: "/w/old.txt", kind: "delete", diff: "--- a/w/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n" },
      {
        path: "/w/a.txt",
        kind: "move",
        movePath: "/w/b.txt",
        diff: "--- a/w/a.txt\n+++ b/w/b.txt\n@@ -1 +1 @@\n-a\n+b\n",
      },
      { path: "/w/c.txt", kind: "update", diff: "--- a/c\n+++ b/c\n@@ -1 +1 @@\n-a\n+b\n" },
      // An empty new file: nothing to diff.
      { path: "/w/empty.txt", kind: "add" },
    ]);
    expect(fileChangesPatch({})).toEqual({});
    expect(fileChangesPatch("x")).toEqual({});
  });
});

describe("command details", () => {
  it("a string command unwrapped; a plain argv joined; duration forms; an odd exit code dropped", () => {
    expect(commandPatch({ command: "/bin/bash -lc 'echo hi'", duration_ms: 12 })).toEqual({
      command: "echo hi",
      shell: "/bin/bash -lc",
      durationMs: 12,
    });
    expect(commandPatch({ command: ["ls", "-la"], exit_code: 1.5, duration: { secs: 2, nanos: 0 } })).toEqual(
      {
        command: "ls -la",
        durationMs: 2000,
      },
    );
    expect(
      commandPatch({ command: [], cwd: "file:///tmp/a%20b", exitCode: 3, duration: { secs: -1 } }),
    ).toEqual({
      cwd: "/tmp/a b",
      exitCode: 3,
    });
    expect(commandPatch({ command: ["ls", 1], cwd: "" })).toEqual({});
  });
});

describe("tool details", () => {
  it("MCP: Err as the error, a TurnItem's error message, Ok as the result", () => {
    expect(mcpPatch({ invocation: { server: "s", tool: "t" }, result: { Err: "boom" } })).toEqual({
      server: "s",
      tool: "t",
      error: "boom",
    });
    expect(mcpPatch({ server: "s", tool: "t", arguments: {}, error: { message: "denied" } })).toEqual({
      server: "s",
      tool: "t",
      arguments: {},
      error: "denied",
    });
  });

  it("web search: the action's url, its queries when no query", () => {
    expect(webSearchPatch({ query: "", action: { type: "open_page", url: "https://x.test" } })).toEqual({
      url: "https://x.test",
    });
    expect(webSearchPatch({ action: { type: "search", queries: ["a", "b"] } })).toEqual({ query: "a, b" });
  });

  it("rollout calls: shell_command, local_shell, apply_patch as a function, MCP names split at the server", () => {
    expect(
      callPatch("command_execution", "shell_command", {
        arguments: '{"command":"git status","workdir":"/repo"}',
      }),
    ).toEqual({ command: "git status", cwd: "/repo" });
    expect(
      callPatch("command_execution", "local_shell", {
        action: { type: "exec", command: ["bash", "-lc", "pwd"], working_directory: "/w" },
      }),
    ).toEqual({ command: "pwd", shell: "bash -lc", cwd: "/w" });
    expect(
      callPatch("file_change", "apply_patch", {
        arguments: JSON.stringify({ input: "*** Begin Patch\n*** Delete File: a\n*** End Patch" }),
      }),
    ).toEqual({ changes: [{ path: "a", kind: "delete" }] });
    expect(callPatch("mcp_tool_call", "mcp__docs__lookup", { arguments: '{"q":1}' })).toEqual({
      server: "docs",
      tool: "lookup",
      arguments: { q: 1 },
    });
    // the server ends at the first `__` (the same split as Claude's MCP tools): the tool may hold `__`
    expect(callPatch("mcp_tool_call", "mcp__a__b__c", { arguments: "{}" })).toMatchObject({
      server: "a",
      tool: "b__c",
    });
    expect(callPatch("command_execution", "write_stdin", { arguments: '{"chars":"y"}' })).toEqual({});
  });

  it("rollout outputs: a command's header gives exit code and wall time; other tools' text is the result", () => {
    const text =
      "Chunk ID: 1\nWall time: 0.5000 seconds\nProcess exited with code 2\nOutput:\nExit code: 0\n";
    expect(outputOf(text, "command_execution")).toEqual({
      text,
      failed: true,
      details: { exitCode: 2, durationMs: 500 },
    });
    expect(outputOf("Exit code: 1\nOutput:\n", "dynamic_tool_call")).toEqual({
      text: "Exit code: 1\nOutput:\n",
      failed: false,
      details: { result: "Exit code: 1\nOutput:\n" },
    });
  });
});

describe("core: details per item", () => {
  const line = (msg: object) =>
    JSON.stringify({
      t: "2026-01-01T00:00:00Z",
      dir: "in",
      msg: { method: `codex/event/x`, params: { msg } },
    });

  it("a record naming another item type for an open item does not bring its details", () => {
    const events = replay(codexEventMsgDefinition, [
      line({ type: "task_started", turn_id: "t1" }),
      line({ type: "exec_command_begin", call_id: "c1", command: ["ls"], cwd: "/w" }),
      line({
        type: "item_completed",
        item: { type: "FileChange", id: "c1", changes: { a: { type: "delete" } } },
      }),
      line({ type: "task_complete", turn_id: "t1" }),
    ]);
    for (const event of events) expect(RuntimeEventSchema.safeParse(event).success).toBe(true);
    const completed = events.find((event) => event.type === "item.completed");
    expect(completed?.type === "item.completed" && completed.payload).toMatchObject({
      itemType: "command_execution",
      title: "ls",
      details: { command: "ls", cwd: "/w" },
    });
  });
});
