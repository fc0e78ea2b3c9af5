import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { CodexAppServerMapper } from "../../../src/providers/codex/app-server-mapper.js";

/**
 * Item details of the v2 ThreadItem types the mock model cannot make Codex 0.171.0 emit. The items follow the
 * shapes of `codex app-server generate-json-schema` (ThreadItem in ItemStartedNotification.json).
 */
const T = "thr-native";
const U = "turn-native";

function run(records: unknown[]): RuntimeEvent[] {
  const mapper = new CodexAppServerMapper({ sessionId: "details" });
  const events = records.flatMap((msg) => mapper.map({ kind: "message", dir: "in", msg }));
  for (const e of events) RuntimeEventSchema.parse(e);
  return events;
}

const started = (item: object) => ({ method: "item/started", params: { threadId: T, turnId: U, item } });
const completed = (item: object) => ({ method: "item/completed", params: { threadId: T, turnId: U, item } });

/** The payload of the one item.completed the records produce. */
function completedPayload(item: object): Record<string, unknown> {
  const done = run([completed(item)]).filter((e) => e.type === "item.completed");
  expect(done).toHaveLength(1);
  return done[0]?.payload as Record<string, unknown>;
}

describe("codex app-server item details (hand-written ThreadItems)", () => {
  it("commandExecution: an unwrapped command keeps no shell; failure keeps its exit code", () => {
    const payload = completedPayload({
      type: "commandExecution",
      id: "c1",
      command: "ls -la",
      cwd: "/w",
      status: "failed",
      commandActions: [],
      aggregatedOutput: "",
      exitCode: 2,
      durationMs: 15,
    });
    expect(payload).toMatchObject({
      itemType: "command_execution",
      status: "failed",
      title: "ls -la",
      detail: "/w",
    });
    expect(payload.details).toEqual({ command: "ls -la", cwd: "/w", exitCode: 2, durationMs: 15 });
  });

  it("commandExecution: a quoted script is unwrapped, quotes and all", () => {
    const payload = completedPayload({
      type: "commandExecution",
      id: "c2",
      command: `/bin/zsh -lc 'printf '"'"'%s'"'"' "a b"'`,
      cwd: "/w",
      status: "completed",
      commandActions: [],
    });
    expect(payload.title).toBe(`printf '%s' "a b"`);
    expect(payload.details).toEqual({ command: `printf '%s' "a b"`, shell: "/bin/zsh -lc", cwd: "/w" });
  });

  it("fileChange: update hunks get a header, a move names both paths, a delete diffs the old content", () => {
    const payload = completedPayload({
      type: "fileChange",
      id: "f1",
      status: "completed",
      changes: [
        { path: "/w/a.ts", kind: { type: "update", move_path: null }, diff: "@@ -1 +1 @@\n-old\n+new\n" },
        { path: "/w/b.ts", kind: { type: "update", move_path: "/w/c.ts" }, diff: "@@ -1 +1 @@\n-x\n+y\n" },
        { path: "/w/d.ts", kind: { type: "update", move_path: "/w/e.ts" }, diff: "" },
        { path: "/w/gone.txt", kind: { type: "delete" }, diff: "bye\n" },
      ],
    });
    expect(payload.title).toBe("/w/a.ts, /w/b.ts, /w/d.ts, /w/gone.txt");
    expect(payload.details).toEqual({
      changes: [
        { path: "/w/a.ts", kind: "update", diff: "--- a/w/a.ts\n+++ b/w/a.ts\n@@ -1 +1 @@\n-old\n+new\n" },
        {
          path: "/w/b.ts",
          kind: "move",
          movePath: "/w/c.ts",
          diff: "--- a/w/b.ts\n+++ b/w/c.ts\n@@ -1 +1 @@\n-x\n+y\n",
        },
        // A pure rename: Codex's diff is empty, so there is none.
        { path: "/w/d.ts", kind: "move", movePath: "/w/e.ts" },
        {
          path: "/w/gone.txt",
          kind: "delete",
          diff: "--- a/w/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n",
        },
      ],
    });
  });

  it("fileChange/patchUpdated: a preview names paths and kinds, and computes no diff", () => {
    const events = run([
      {
        method: "item/fileChange/patchUpdated",
        params: {
          threadId: T,
          turnId: U,
          itemId: "f2",
          changes: [{ path: "/w/a.ts", kind: { type: "update" }, diff: "@@ def f\n-a\n+b" }],
        },
      },
    ]);
    const update = events.find((e) => e.type === "item.updated");
    expect(update?.payload).toMatchObject({
      itemType: "file_change",
      details: { changes: [{ path: "/w/a.ts", kind: "update" }] },
    });
    // The same change, exactly: no `diff` key (toEqual would ignore an undefined one; the JSON would not).
    expect(JSON.stringify(update?.payload.details)).toBe('{"changes":[{"path":"/w/a.ts","kind":"update"}]}');
  });

  it("mcpToolCall: server, tool, arguments, result and error", () => {
    const result = { content: [{ type: "text", text: "42" }], structuredContent: null };
    expect(
      completedPayload({
        type: "mcpToolCall",
        id: "m1",
        server: "calc",
        tool: "add",
        status: "completed",
        arguments: { a: 40, b: 2 },
        result,
        error: null,
      }),
    ).toMatchObject({
      title: "calc/add",
      details: { server: "calc", tool: "add", arguments: { a: 40, b: 2 }, result },
    });
    const failed = completedPayload({
      type: "mcpToolCall",
      id: "m2",
      server: "calc",
      tool: "div",
      status: "failed",
      arguments: {},
      result: null,
      error: { message: "division by zero" },
    });
    expect(failed.status).toBe("failed");
    expect(failed.details).toEqual({ server: "calc", tool: "div", arguments: {}, error: "division by zero" });
  });

  it("item/mcpToolCall/progress: tool.progress names the call by Codex's item id, its canonical item in the envelope", () => {
    const mcp = {
      type: "mcpToolCall",
      id: "m1",
      server: "calc",
      tool: "add",
      status: "inProgress",
      arguments: {},
    };
    const events = run([
      started(mcp),
      {
        method: "item/mcpToolCall/progress",
        params: { threadId: T, turnId: U, itemId: "m1", message: "halfway" },
      },
    ]);
    const item = events.find((e) => e.type === "item.started");
    const progress = events.find((e) => e.type === "tool.progress");
    expect(progress?.payload).toEqual({ toolUseId: "m1", summary: "halfway" });
    expect(item?.itemId).toBeDefined();
    expect(progress).toMatchObject({ itemId: item?.itemId, providerRefs: { providerItemId: "m1" } });
  });

  it("dynamicToolCall and functionCallOutput: the tool, its arguments or output", () => {
    const dynamic = completedPayload({
      type: "dynamicToolCall",
      id: "d1",
      tool: "lookup",
      namespace: null,
      arguments: { q: "x" },
      status: "failed",
      success: false,
      contentItems: [{ type: "inputText", text: "not found" }],
    });
    // Codex reports only `success: false`, no error text: `error` stays absent.
    expect(dynamic.details).toEqual({
      tool: "lookup",
      arguments: { q: "x" },
      result: [{ type: "inputText", text: "not found" }],
    });
    const output = completedPayload({
      type: "functionCallOutput",
      id: "o1",
      name: "read_file",
      output: "contents",
    });
    expect(output).toMatchObject({ itemType: "dynamic_tool_call", title: "read_file" });
    expect(output.details).toEqual({ tool: "read_file", result: "contents" });
    expect(completedPayload({ type: "sleep", id: "s1", durationMs: 500 }).details).toEqual({
      tool: "sleep",
      arguments: { durationMs: 500 },
    });
  });

  it("webSearch: the query, and the URL of an openPage or findInPage action", () => {
    expect(
      completedPayload({
        type: "webSearch",
        id: "w1",
        query: "zod unions",
        action: { type: "search", query: "zod unions" },
      }).details,
    ).toEqual({ query: "zod unions" });
    expect(
      completedPayload({
        type: "webSearch",
        id: "w2",
        query: "",
        action: { type: "openPage", url: "https://x.dev/a" },
      }).details,
    ).toEqual({ url: "https://x.dev/a" });
    expect(
      completedPayload({
        type: "webSearch",
        id: "w3",
        query: "",
        action: { type: "findInPage", url: "https://x.dev/b", pattern: "p" },
      }).details,
    ).toEqual({ url: "https://x.dev/b" });
  });

  it("collab calls carry the prompt (Codex names no agent type); subagent activity has no details to give", () => {
    const call = completedPayload({
      type: "collabAgentToolCall",
      id: "k1",
      tool: "spawnAgent",
      status: "completed",
      senderThreadId: T,
      receiverThreadIds: ["child"],
      prompt: "review the diff",
      model: "gpt-5.5",
      agentsStates: {},
    });
    expect(call).toMatchObject({ itemType: "collab_agent_tool_call", title: "spawnAgent" });
    expect(call.details).toEqual({ prompt: "review the diff" });
    const activity = completedPayload({
      type: "subAgentActivity",
      id: "a1",
      kind: "started",
      agentPath: "/root/reviewer",
      agentThreadId: "child",
    });
    expect(activity).toMatchObject({ title: "subagent started", detail: "/root/reviewer", details: {} });
  });

  it("texts: user input text parts, hook prompt fragments, plan text, reasoning content without a summary", () => {
    expect(
      completedPayload({
        type: "userMessage",
        id: "u1",
        content: [
          { type: "text", text: "look at", text_elements: [] },
          { type: "localImage", path: "/w/shot.png" },
          { type: "text", text: "this image", text_elements: [] },
        ],
      }).details,
    ).toEqual({ text: "look at\nthis image" });
    expect(
      completedPayload({ type: "hookPrompt", id: "h1", fragments: [{ hookRunId: "r", text: "be brief" }] })
        .details,
    ).toEqual({ text: "be brief" });
    expect(completedPayload({ type: "plan", id: "p1", text: "1. read\n2. write" }).details).toEqual({
      text: "1. read\n2. write",
    });
    expect(
      completedPayload({ type: "reasoning", id: "r1", summary: [], content: ["step one", "step two"] })
        .details,
    ).toEqual({
      text: "step one\n\nstep two",
    });
  });

  it("images: the viewed path, the generated image's saved path", () => {
    expect(completedPayload({ type: "imageView", id: "i1", path: "/w/a.png" }).details).toEqual({
      path: "/w/a.png",
    });
    expect(
      completedPayload({ type: "imageGeneration", id: "g1", status: "completed", savedPath: "/w/gen.png" })
        .details,
    ).toEqual({ path: "/w/gen.png" });
    expect(
      completedPayload({ type: "imageGeneration", id: "g2", status: "failed", revisedPrompt: "a cat" }),
    ).toMatchObject({
      detail: "a cat",
      details: {},
    });
  });

  it("markers without a details schema carry none", () => {
    for (const type of ["enteredReviewMode", "exitedReviewMode", "contextCompaction"])
      expect(completedPayload({ type, id: type, review: "r" })).not.toHaveProperty("details");
  });

  it("stdin to a running command and a turn cut short repeat the command's details", () => {
    const command = {
      type: "commandExecution",
      id: "c3",
      command: "/bin/bash -lc 'cat'",
      cwd: "/w",
      status: "inProgress",
      commandActions: [],
    };
    const events = run([
      { method: "turn/started", params: { threadId: T, turn: { id: U, items: [], status: "inProgress" } } },
      started(command),
      {
        method: "item/commandExecution/terminalInteraction",
        params: { threadId: T, turnId: U, itemId: "c3", processId: "9", stdin: "hi\n" },
      },
      {
        method: "turn/completed",
        params: { threadId: T, turn: { id: U, items: [], status: "interrupted" } },
      },
    ]);
    const expected = { command: "cat", shell: "/bin/bash -lc", cwd: "/w" };
    expect(events.find((e) => e.type === "item.updated")?.payload).toMatchObject({
      details: expected,
      data: { stdin: "hi\n" },
    });
    expect(events.find((e) => e.type === "item.completed")?.payload).toMatchObject({
      status: "failed",
      details: expected,
    });
  });

  it("a native item missing the fields its details require gets a title but no details", () => {
    expect(completedPayload({ type: "commandExecution", id: "c4", status: "completed" })).not.toHaveProperty(
      "details",
    );
    expect(
      completedPayload({ type: "mcpToolCall", id: "m3", tool: "t", status: "completed" }),
    ).not.toHaveProperty("details");
  });
});

describe("codex app-server records without the ids their events require", () => {
  it.each([
    ["turn/started", {}],
    ["turn/started", { threadId: T, turn: {} }],
    ["turn/completed", {}],
    ["turn/completed", { threadId: T, turn: { status: "completed" } }],
    ["thread/started", {}],
    ["thread/started", { thread: { id: "" } }],
  ])("%s %j is a warning, not a lifecycle event", (method, params) => {
    const events = run([{ method, params }]);
    expect(events.map((e) => e.type)).toEqual(["runtime.warning"]);
    expect(events[0]?.payload).toMatchObject({ detail: { reason: "malformed-record" } });
  });

  it("turn/start's reply reports no session state: running follows turn/started", () => {
    const mapper = new CodexAppServerMapper({ sessionId: "details" });
    const map = (dir: "in" | "out", msg: unknown) => mapper.map({ kind: "message", dir, msg });
    map("out", { id: 1, method: "thread/start", params: {} });
    map("in", { id: 1, result: { thread: { id: T } } });
    map("out", { id: 2, method: "turn/start", params: { threadId: T } });
    const reply = map("in", { id: 2, result: { turn: { id: U } } });
    expect(reply.map((e) => e.type)).toEqual(["provider.event"]);
    const turn = map("in", { method: "turn/started", params: { threadId: T, turn: { id: U } } });
    expect(turn.map((e) => [e.type, (e.payload as { state?: string }).state])).toEqual([
      ["turn.started", undefined],
      ["session.state.changed", "running"],
      ["thread.state.changed", "active"],
    ]);
  });
});
