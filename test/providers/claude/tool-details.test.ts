/**
 * Details of the Claude Code tools the recorded scenarios do not call, on records shaped like Claude Code 2.1's
 * (tool inputs and `tool_use_result` objects as the SDK's sdk-tools.d.ts declares them).
 */
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import type { TranscriptEntry } from "../../../src/kit/transcript.js";
import { unifiedDiff } from "../../../src/kit/unified-diff.js";
import { replay } from "./test-helpers.js";

interface Result {
  content: unknown;
  isError?: boolean;
  toolUseResult?: unknown;
}

const message = (msg: Record<string, unknown>): TranscriptEntry => ({
  kind: "message",
  dir: "in",
  msg: { session_id: "s", parent_tool_use_id: null, ...msg },
});

/** One tool call as an `assistant` snapshot (input complete) and, if given, its `user` tool result. */
function call(block: Record<string, unknown>, result?: Result): RuntimeEvent[] {
  const entries = [
    message({ type: "assistant", uuid: "a", message: { id: "m1", role: "assistant", content: [block] } }),
  ];
  if (result !== undefined)
    entries.push(
      message({
        type: "user",
        uuid: "u",
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: block.id,
              content: result.content,
              ...(result.isError ? { is_error: true } : {}),
            },
          ],
        },
        ...(result.toolUseResult === undefined ? {} : { tool_use_result: result.toolUseResult }),
      }),
    );
  const events = replay(entries, "t");
  for (const event of events) RuntimeEventSchema.parse(event);
  return events;
}

const tool = (name: string, input: Record<string, unknown>) => ({
  type: "tool_use",
  id: "toolu_1",
  name,
  input,
});

function payloads(events: RuntimeEvent[]) {
  const items = events.filter(
    (e) =>
      (e.type === "item.started" || e.type === "item.completed") &&
      e.providerRefs?.providerItemId === "toolu_1",
  );
  const of = (type: string) =>
    items.find((e) => e.type === type)?.payload as Record<string, unknown> | undefined;
  return { started: of("item.started"), completed: of("item.completed") };
}

const PATH = "/work/app/src/a.ts";

describe("claude tool details", () => {
  it("Edit: the replaced text's diff from the input, the result's structuredPatch once it comes", () => {
    const input = { file_path: PATH, old_string: "let b = 1;", new_string: "let b = 2;", replace_all: false };
    const hunk = {
      oldStart: 3,
      oldLines: 3,
      newStart: 3,
      newLines: 3,
      lines: [" a();", "-let b = 1;", "+let b = 2;", " c();"],
    };
    const { started, completed } = payloads(
      call(tool("Edit", input), {
        content: "The file has been updated.",
        toolUseResult: {
          filePath: PATH,
          oldString: input.old_string,
          newString: input.new_string,
          structuredPatch: [hunk],
        },
      }),
    );
    expect(started).toMatchObject({ itemType: "file_change", title: PATH });
    expect(started?.details).toEqual({
      changes: [{ path: PATH, kind: "update", diff: unifiedDiff(PATH, input.old_string, input.new_string) }],
    });
    expect(started?.details).toMatchObject({ changes: [{ diff: expect.stringContaining("-let b = 1;\n") }] });
    expect(completed?.details).toEqual({
      changes: [
        {
          path: PATH,
          kind: "update",
          diff: "--- a/work/app/src/a.ts\n+++ b/work/app/src/a.ts\n@@ -3,3 +3,3 @@\n a();\n-let b = 1;\n+let b = 2;\n c();\n",
        },
      ],
    });
  });

  it("Edit that fails keeps the input's diff; a malformed structuredPatch is not trusted", () => {
    const input = { file_path: PATH, old_string: "x", new_string: "y" };
    const failed = payloads(
      call(tool("Edit", input), { content: "File has not been read yet.", isError: true }),
    );
    expect(failed.completed).toMatchObject({
      status: "failed",
      details: { changes: [{ path: PATH, kind: "update" }] },
    });
    expect(failed.completed?.details).toEqual(failed.started?.details);
    const odd = payloads(
      call(tool("Edit", input), { content: "ok", toolUseResult: { structuredPatch: [{ lines: 3 }] } }),
    );
    expect(odd.completed?.details).toBeDefined();
    expect(odd.completed?.details).toEqual(odd.started?.details);
  });

  it("Write over an existing file: update, with the diff of the original and the new content", () => {
    const { completed } = payloads(
      call(tool("Write", { file_path: PATH, content: "new\n" }), {
        content: "The file has been updated.",
        toolUseResult: {
          type: "update",
          filePath: PATH,
          content: "new\n",
          structuredPatch: [],
          originalFile: "old\n",
        },
      }),
    );
    expect(completed?.details).toEqual({
      changes: [{ path: PATH, kind: "update", diff: unifiedDiff(PATH, "old\n", "new\n") }],
    });
  });

  it("MultiEdit: one change of the file, the edits' diffs joined; NotebookEdit: the notebook, its cell's diff", () => {
    const edits = [
      { old_string: "a", new_string: "b" },
      { old_string: "c", new_string: "d" },
    ];
    const multi = payloads(call(tool("MultiEdit", { file_path: PATH, edits })));
    expect(multi.started?.details).toEqual({
      changes: [
        { path: PATH, kind: "update", diff: `${unifiedDiff(PATH, "a", "b")}${unifiedDiff(PATH, "c", "d")}` },
      ],
    });
    const nb = "/work/app/n.ipynb";
    const notebook = payloads(
      call(tool("NotebookEdit", { notebook_path: nb, new_source: "print(2)", edit_mode: "replace" }), {
        content: "Updated cell",
        toolUseResult: {
          new_source: "print(2)",
          old_source: "print(1)",
          notebook_path: nb,
          edit_mode: "replace",
        },
      }),
    );
    expect(notebook.started).toMatchObject({
      title: nb,
      details: { changes: [{ path: nb, kind: "update" }] },
    });
    expect(notebook.started?.details).toEqual({ changes: [{ path: nb, kind: "update" }] });
    expect(notebook.completed?.details).toEqual({
      changes: [{ path: nb, kind: "update", diff: unifiedDiff(nb, "print(1)", "print(2)") }],
    });
  });

  it("Read, Grep, Glob: dynamic calls of kind read/search with the paths the input names", () => {
    const read = payloads(call(tool("Read", { file_path: PATH }), { content: "     1→x" }));
    expect(read.completed?.details).toEqual({
      tool: "Read",
      kind: "read",
      arguments: { file_path: PATH },
      paths: [PATH],
      result: "     1→x",
    });
    const grep = payloads(call(tool("Grep", { pattern: "TODO", path: "/work/app", glob: "*.ts" })));
    expect(grep.started?.details).toEqual({
      tool: "Grep",
      kind: "search",
      arguments: { pattern: "TODO", path: "/work/app", glob: "*.ts" },
      paths: ["/work/app"],
    });
    // No path: Glob searched the cwd, which the input does not name, so no paths.
    const glob = payloads(call(tool("Glob", { pattern: "**/*.js" })));
    expect(glob.started?.details).toEqual({
      tool: "Glob",
      kind: "search",
      arguments: { pattern: "**/*.js" },
    });
  });

  it("WebSearch and WebFetch: web_search items with the query or the URL", () => {
    const search = payloads(call(tool("WebSearch", { query: "xterm scroll" })));
    expect(search.started).toMatchObject({ itemType: "web_search", details: { query: "xterm scroll" } });
    const fetch = payloads(call(tool("WebFetch", { url: "https://example.com/a", prompt: "summarize" })));
    expect(fetch.started).toMatchObject({ itemType: "web_search" });
    expect(fetch.started?.details).toEqual({ url: "https://example.com/a" });
  });

  it("MCP: server and tool from mcp__<server>__<tool>, arguments, and the result or the error", () => {
    const name = "mcp__git_hub__create_issue";
    const ok = payloads(call(tool(name, { title: "t" }), { content: [{ type: "text", text: "#12" }] }));
    expect(ok.completed?.details).toEqual({
      server: "git_hub",
      tool: "create_issue",
      arguments: { title: "t" },
      result: "#12",
    });
    const failed = payloads(call(tool(name, { title: "t" }), { content: "rate limited", isError: true }));
    expect(failed.completed).toMatchObject({ status: "failed" });
    expect(failed.completed?.details).toEqual({
      server: "git_hub",
      tool: "create_issue",
      arguments: { title: "t" },
      error: "rate limited",
    });
    const block = {
      type: "mcp_tool_use",
      id: "toolu_1",
      name: "search",
      server_name: "docs",
      input: { q: "x" },
    };
    expect(payloads(call(block)).started?.details).toEqual({
      server: "docs",
      tool: "search",
      arguments: { q: "x" },
    });
  });

  it("Agent without subagent_type takes the agent type its result reports; TodoWrite's steps are the plan text", () => {
    const agent = payloads(
      call(tool("Task", { description: "look", prompt: "find it" }), {
        content: [{ type: "text", text: "found" }],
        toolUseResult: { status: "completed", agentType: "general-purpose" },
      }),
    );
    expect(agent.started?.details).toEqual({ description: "look", prompt: "find it" });
    expect(agent.completed?.details).toEqual({
      agentType: "general-purpose",
      description: "look",
      prompt: "find it",
    });
    const todos = [
      { content: "One", status: "completed", activeForm: "Doing one" },
      { content: "Two", status: "pending", activeForm: "Doing two" },
    ];
    expect(payloads(call(tool("TodoWrite", { todos }))).started).toMatchObject({
      itemType: "plan",
      details: { text: "One\nTwo" },
    });
  });

  it("a result whose call never came: tool `unknown`, its result, no arguments; cut input JSON gives none", () => {
    const orphan = replay(
      [
        message({
          type: "user",
          uuid: "u",
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "out" }],
          },
        }),
      ],
      "t",
    ).filter((e) => e.type.startsWith("item."));
    expect(orphan.map((e) => e.type)).toEqual(["item.started", "item.completed"]);
    expect(orphan[1]?.payload).toHaveProperty("details");
    expect((orphan[1]?.payload as { details?: unknown } | undefined)?.details).toEqual({
      tool: "unknown",
      result: "out",
    });
    const stream = (event: Record<string, unknown>) => message({ type: "stream_event", uuid: "e", event });
    const cut = replay(
      [
        stream({ type: "message_start", message: { id: "m1" } }),
        stream({
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_1", name: "Read", input: {} },
        }),
        stream({
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: '{"file_' },
        }),
        stream({ type: "content_block_stop", index: 0 }),
      ],
      "t",
    );
    const updated = cut.find((e) => e.type === "item.updated");
    expect(updated?.payload).toMatchObject({ data: { input: { partialJson: '{"file_' } } });
    expect((updated?.payload as { details?: unknown } | undefined)?.details).toEqual({
      tool: "Read",
      kind: "read",
    });
  });

  it("any other tool: a dynamic call with its name and input, no kind", () => {
    const { completed } = payloads(call(tool("Skill", { skill: "verify" }), { content: "done" }));
    expect(completed?.details).toEqual({ tool: "Skill", arguments: { skill: "verify" }, result: "done" });
  });
});

describe("tool.progress (Claude's tool_progress)", () => {
  it("names the call by its tool-use id and, its item being known, carries the item's ids in the envelope", () => {
    const events = replay(
      [
        message({
          type: "assistant",
          uuid: "a",
          message: { id: "m1", role: "assistant", content: [tool("Bash", { command: "make" })] },
        }),
        message({
          type: "tool_progress",
          tool_use_id: "toolu_1",
          tool_name: "Bash",
          elapsed_time_seconds: 2,
        }),
        message({
          type: "tool_progress",
          tool_use_id: "toolu_unknown",
          tool_name: "Bash",
          elapsed_time_seconds: 1,
        }),
      ],
      "t",
    );
    for (const event of events) RuntimeEventSchema.parse(event);
    const item = events.find((e) => e.type === "item.started");
    const progress = events.filter((e) => e.type === "tool.progress");
    expect(progress.map((e) => e.payload)).toEqual([
      { toolUseId: "toolu_1", toolName: "Bash", elapsedSeconds: 2 },
      { toolUseId: "toolu_unknown", toolName: "Bash", elapsedSeconds: 1 },
    ]);
    expect(item?.itemId).toBeDefined();
    expect(progress[0]).toMatchObject({ itemId: item?.itemId, providerRefs: { providerItemId: "toolu_1" } });
    expect(progress[1]?.itemId).toBeUndefined();
    expect(progress[1]?.providerRefs?.providerItemId).toBe("toolu_unknown");
  });
});
