import { describe, expect, it } from "vitest";
import { type RuntimeEvent, RuntimeEventSchema } from "../../../src/contracts/events.js";
import { acpDefinition } from "../../../src/providers/acp/definition.js";

/** The generic mapping by ToolKind and content type, on records written to the ACP v1 schema. */

type Record = { dir: "in" | "out"; msg: unknown };

const handshake: Record[] = [
  {
    dir: "out",
    msg: { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } },
  },
  { dir: "in", msg: { jsonrpc: "2.0", id: 1, result: { sessionId: "s" } } },
  {
    dir: "out",
    msg: { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [] } },
  },
];

const update = (fields: object): Record => ({
  dir: "in",
  msg: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: fields } },
});

function run(records: Record[]): RuntimeEvent[] {
  const mapper = acpDefinition.create({ sessionId: "m" });
  const events = [...handshake, ...records].flatMap((record) =>
    mapper.map({ kind: "message", dir: record.dir, msg: record.msg }),
  );
  for (const event of events) RuntimeEventSchema.parse(event);
  return events;
}

function lastItem(events: RuntimeEvent[]) {
  const item = events.findLast((event) => event.type.startsWith("item.") && event.itemId !== undefined);
  if (item === undefined || !("itemType" in item.payload)) throw new Error("no item event");
  return item.payload;
}

const tool = (fields: object) => update({ sessionUpdate: "tool_call", toolCallId: "t1", ...fields });
const toolUpdate = (fields: object) =>
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", ...fields });

describe("file_change", () => {
  it("diff with old text → update with a unified diff; the title is the paths", () => {
    const payload = lastItem(
      run([
        tool({
          title: "Edit",
          kind: "edit",
          content: [
            { type: "diff", path: "/w/a.txt", oldText: "one\n", newText: "two\n" },
            { type: "diff", path: "/w/b.txt", newText: "new\n" },
          ],
        }),
      ]),
    );
    expect(payload.title).toBe("/w/a.txt, /w/b.txt");
    expect(payload.details).toEqual({
      changes: [
        {
          path: "/w/a.txt",
          kind: "update",
          diff: "--- a/w/a.txt\n+++ b/w/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two\n",
        },
        { path: "/w/b.txt", kind: "add", diff: "--- /dev/null\n+++ b/w/b.txt\n@@ -0,0 +1,1 @@\n+new\n" },
      ],
    });
  });

  it("ToolKind delete / move give the kind; without diffs the locations name the files; no movePath is made up", () => {
    const deleted = lastItem(run([tool({ title: "rm", kind: "delete", locations: [{ path: "/w/old" }] })]));
    expect(deleted.details).toEqual({ changes: [{ path: "/w/old", kind: "delete" }] });
    expect(deleted.title).toBe("/w/old");
    const moved = lastItem(
      run([
        tool({
          title: "mv",
          kind: "move",
          content: [{ type: "diff", path: "/w/x", oldText: "a", newText: "a" }],
        }),
      ]),
    );
    expect(moved.details).toEqual({ changes: [{ path: "/w/x", kind: "move" }] });
  });

  it("an edit with only locations has no changes (add or update is not known) but is titled by its path", () => {
    const payload = lastItem(run([tool({ title: "Write x", kind: "edit", locations: [{ path: "/w/x" }] })]));
    expect(payload.title).toBe("/w/x");
    expect(payload.details).toBeUndefined();
  });

  it("Codex's patch in rawInput.changes: delete, and an update with its unified diff and move_path", () => {
    const payload = lastItem(
      run([
        tool({
          title: "Edit",
          kind: "edit",
          content: [{ type: "diff", path: "/w/new", oldText: "a", newText: "b" }],
          rawInput: {
            changes: {
              "/w/gone": { type: "delete", content: "bye\n" },
              "/w/old": { type: "update", unified_diff: "@@ -1 +1 @@\n-a\n+b\n", move_path: "/w/new" },
            },
          },
        }),
      ]),
    );
    expect(payload.title).toBe("/w/gone, /w/old");
    expect(payload.details).toEqual({
      changes: [
        { path: "/w/gone", kind: "delete", diff: "--- a/w/gone\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n" },
        // the bare hunks get the file header they lack, as the EventMsg mapper writes them
        {
          path: "/w/old",
          kind: "move",
          movePath: "/w/new",
          diff: "--- a/w/old\n+++ b/w/new\n@@ -1 +1 @@\n-a\n+b\n",
        },
      ],
    });
  });
});

describe("command_execution", () => {
  it("the details survive an update that carries only the status; _meta.terminal_exit gives the exit code", () => {
    const events = run([
      tool({ title: "Terminal", kind: "execute", rawInput: { command: "ls -la", cwd: "/w" } }),
      toolUpdate({ status: "completed", _meta: { terminal_exit: { terminal_id: "t1", exit_code: 2 } } }),
    ]);
    const payload = lastItem(events);
    expect(payload.title).toBe("ls -la");
    expect(payload.details).toEqual({ command: "ls -la", cwd: "/w", exitCode: 2 });
  });

  it("a `terminal` content entry names the client terminal: its command, cwd and exit status", () => {
    const events = run([
      {
        dir: "in",
        msg: {
          jsonrpc: "2.0",
          id: 7,
          method: "terminal/create",
          params: { sessionId: "s", command: "/bin/sh", args: ["-c", "make test"], cwd: "/w/pkg" },
        },
      },
      { dir: "out", msg: { jsonrpc: "2.0", id: 7, result: { terminalId: "term-1" } } },
      tool({ title: "Run", kind: "execute", content: [{ type: "terminal", terminalId: "term-1" }] }),
      {
        dir: "in",
        msg: { jsonrpc: "2.0", id: 8, method: "terminal/wait_for_exit", params: { terminalId: "term-1" } },
      },
      { dir: "out", msg: { jsonrpc: "2.0", id: 8, result: { exitCode: 0, signal: null } } },
      toolUpdate({ status: "completed" }),
    ]);
    expect(lastItem(events).details).toEqual({
      command: "make test",
      shell: "/bin/sh -c",
      cwd: "/w/pkg",
      exitCode: 0,
    });
  });
});

describe("other tools", () => {
  it("read → dynamic_tool_call with kind read, the paths, arguments and result", () => {
    const events = run([
      tool({
        title: "Read a.ts",
        kind: "read",
        name: "read_file",
        locations: [{ path: "/w/a.ts", line: 3 }],
      }),
      toolUpdate({ status: "completed", rawInput: { path: "/w/a.ts" }, rawOutput: { text: "x" } }),
    ]);
    const payload = lastItem(events);
    expect(payload.itemType).toBe("dynamic_tool_call");
    expect(payload.details).toEqual({
      tool: "read_file",
      arguments: { path: "/w/a.ts" },
      result: { text: "x" },
      kind: "read",
      paths: ["/w/a.ts"],
    });
  });

  it("without a programmatic name the tool is its title; a failed call's text output is its error", () => {
    const payload = lastItem(
      run([
        tool({ title: "grep foo", kind: "search" }),
        toolUpdate({ status: "failed", rawOutput: "denied" }),
      ]),
    );
    expect(payload.details).toEqual({ tool: "grep foo", error: "denied", kind: "search" });
  });

  it("fetch → web_search with the url or the query", () => {
    const fetchUrl = lastItem(
      run([tool({ title: "Fetch", kind: "fetch", rawInput: { url: "https://x.test" } })]),
    );
    expect(fetchUrl.itemType).toBe("web_search");
    expect(fetchUrl.details).toEqual({ url: "https://x.test" });
    const search = lastItem(
      run([
        tool({ title: "Searching", kind: "fetch", rawInput: { query: "acp", action: { type: "search" } } }),
      ]),
    );
    expect(search.details).toEqual({ query: "acp" });
  });

  it("MCP only where the input says server and tool; an MCP-looking title alone stays a dynamic tool", () => {
    const mcp = lastItem(
      run([
        tool({
          title: "Tool: docs/search",
          rawInput: { server: "docs", tool: "search", arguments: { q: "x" } },
        }),
        toolUpdate({ status: "completed", rawOutput: { content: [] } }),
      ]),
    );
    expect(mcp.itemType).toBe("mcp_tool_call");
    expect(mcp.details).toEqual({
      server: "docs",
      tool: "search",
      arguments: { q: "x" },
      result: { content: [] },
    });
    const titled = lastItem(run([tool({ title: "Tool: docs/search", kind: "other", rawInput: { q: "x" } })]));
    expect(titled.itemType).toBe("dynamic_tool_call");
    expect(titled.details).toEqual({ tool: "Tool: docs/search", arguments: { q: "x" }, kind: "other" });
  });
});

describe("required ids", () => {
  it("a session/new answer without a sessionId: a warning, never a thread.started without threadId", () => {
    const mapper = acpDefinition.create({ sessionId: "n" });
    mapper.map({
      kind: "message",
      dir: "out",
      msg: { jsonrpc: "2.0", id: 1, method: "session/new", params: {} },
    });
    const events = mapper.map({ kind: "message", dir: "in", msg: { jsonrpc: "2.0", id: 1, result: {} } });
    for (const event of events) RuntimeEventSchema.parse(event);
    expect(events.some((event) => event.type === "thread.started")).toBe(false);
    expect(events.find((event) => event.type === "runtime.warning")?.payload.message).toMatch(/sessionId/);
  });
});

describe("what the maintained adapters send besides ACP v1", () => {
  const assistantText = (events: RuntimeEvent[]) =>
    events
      .filter((event) => event.type === "content.delta" && event.payload.streamKind === "assistant_text")
      .map((event) => (event.type === "content.delta" ? event.payload.delta : ""))
      .join("");

  it("claude-agent-acp's informational notices are not the answer: warning → runtime.warning, else provider.event", () => {
    const notice = (level: string, text: string) =>
      update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text },
        _meta: { claudeCode: { kind: "informational", level } },
      });
    const events = run([
      update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "the " },
        messageId: "m1",
      }),
      notice("warning", "**Warning:** hook blocked"),
      notice("info", "a status line"),
      update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "answer" },
        messageId: "m2",
      }),
    ]);
    expect(assistantText(events)).toBe("the answer");
    expect(events.find((event) => event.type === "runtime.warning")?.payload).toMatchObject({
      message: "**Warning:** hook blocked",
      detail: { reason: "agent-notice", level: "warning" },
    });
    expect(events.find((event) => event.type === "provider.event")?.payload).toMatchObject({
      name: "informational:info",
      summary: "a status line",
    });
  });

  it("an error with data.errorKind gets the class of its kind", () => {
    const events = run([
      {
        dir: "in",
        msg: {
          jsonrpc: "2.0",
          id: 2,
          error: { code: -32603, message: "limit", data: { errorKind: "rate_limit" } },
        },
      },
    ]);
    expect(events.find((event) => event.type === "runtime.error")?.payload).toMatchObject({
      class: "provider_error",
      detail: { errorKind: "rate_limit" },
    });
    const auth = run([
      {
        dir: "in",
        msg: {
          jsonrpc: "2.0",
          id: 2,
          error: { code: -32603, message: "no", data: { errorKind: "authentication_failed" } },
        },
      },
    ]);
    expect(auth.find((event) => event.type === "runtime.error")?.payload.class).toBe("permission_error");
  });

  it("terminal output in _meta: command_output deltas, the exit code in details, no repeat at the end", () => {
    const events = run([
      update({
        sessionUpdate: "tool_call",
        toolCallId: "t",
        kind: "execute",
        status: "in_progress",
        rawInput: { command: "ls" },
        _meta: { terminal_info: { cwd: "/w", terminal_id: "t" } },
      }),
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        _meta: { terminal_output_delta: { data: "a\n", terminal_id: "t" } },
      }),
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "t",
        status: "completed",
        rawOutput: { stdout: "a\nb\n" },
        _meta: { terminal_output_delta: { data: "b\n" }, terminal_exit: { exit_code: 2, terminal_id: "t" } },
      }),
    ]);
    const output = events
      .filter((event) => event.type === "content.delta" && event.payload.streamKind === "command_output")
      .map((event) => (event.type === "content.delta" ? event.payload.delta : ""));
    expect(output).toEqual(["a\n", "b\n"]);
    expect(lastItem(events)).toMatchObject({
      status: "completed",
      details: { command: "ls", cwd: "/w", exitCode: 2 },
    });
  });
});
