import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import type { ItemLifecyclePayload } from "../../../src/contracts/item-details.js";
import type { MapperDefinition } from "../../../src/kit/mapper.js";
import {
  codexEventMsgDefinition,
  codexRolloutDefinition,
} from "../../../src/providers/codex-eventmsg/definition.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { EVENTMSG_FIXTURES, ROLLOUT_FIXTURES, readLines, replay } from "./replay.js";

type ItemEventType = "item.started" | "item.updated" | "item.completed";

function run(definition: MapperDefinition, dir: string, name: string): RuntimeEvent[] {
  return replay(definition, readLines(join(dir, `${name}.jsonl`)));
}

/** The payloads of one item event type for one item type, in stream order. */
function items(events: RuntimeEvent[], type: ItemEventType, itemType: string): ItemLifecyclePayload[] {
  const out: ItemLifecyclePayload[] = [];
  for (const event of events) {
    if (event.type === type && event.payload.itemType === itemType) out.push(event.payload);
  }
  return out;
}

function only(events: RuntimeEvent[], type: ItemEventType, itemType: string): ItemLifecyclePayload {
  const found = items(events, type, itemType);
  expect(found, `${type} ${itemType}`).toHaveLength(1);
  return found[0] as ItemLifecyclePayload;
}

const eventmsg = (name: string) => run(codexEventMsgDefinition, EVENTMSG_FIXTURES, name);
const rollout = (name: string) => run(codexRolloutDefinition, ROLLOUT_FIXTURES, name);

describe("codex-eventmsg details on the recorded fixtures", () => {
  it("shell: the CommandExecution item's argv unwrapped, its cwd URI as a path, exit code and duration", () => {
    const completed = only(eventmsg("shell"), "item.completed", "command_execution");
    expect(completed.title).toBe("echo mock-shell-output");
    expect(completed.details).toEqual({
      command: "echo mock-shell-output",
      shell: "/bin/bash -lc",
      cwd: "/tmp/codex-rollout-cwd-xurWDT",
      exitCode: 0,
      // duration {secs: 0, nanos: 5508}
      durationMs: 0.005508,
    });
  });

  it("edit: the FileChange item's add, its content as a diff from empty text", () => {
    const completed = only(eventmsg("edit"), "item.completed", "file_change");
    const path = "/tmp/codex-rollout-cwd-2RFktl/mock-edit.txt";
    expect(completed.title).toBe(path);
    expect(completed.details).toEqual({
      changes: [
        {
          path,
          kind: "add",
          diff: `--- /dev/null\n+++ b/${path.slice(1)}\n@@ -0,0 +1,1 @@\n+written by the mock model\n`,
        },
      ],
    });
  });

  it("text, reasoning: the messages' and the reasoning's whole text", () => {
    const text = eventmsg("text");
    expect(only(text, "item.completed", "user_message").details).toEqual({ text: "mock:text say hello" });
    expect(only(text, "item.completed", "assistant_message").details).toEqual({
      text: "mock final answer: text",
    });
    expect(only(eventmsg("reasoning"), "item.completed", "reasoning").details).toEqual({
      text: "Thinking about the mock request.",
    });
  });

  it("hand-written legacy shapes: exec, patch, MCP, web search, collab begin/end pairs", () => {
    const events = eventmsg("hand-written-legacy-0.114-shapes");
    expect(only(events, "item.started", "command_execution").details).toEqual({
      command: "ls",
      shell: "bash -lc",
      cwd: "/work",
    });
    expect(only(events, "item.completed", "command_execution").details).toEqual({
      command: "ls",
      shell: "bash -lc",
      cwd: "/work",
      exitCode: 0,
      durationMs: 0.001,
    });
    // patch_apply_end's `changes` is empty: the begin's changes stay.
    const patch = only(events, "item.completed", "file_change");
    expect(patch.title).toBe("/work/a.txt");
    expect(patch.details).toEqual({
      changes: [
        {
          path: "/work/a.txt",
          kind: "update",
          diff: "--- a/work/a.txt\n+++ b/work/a.txt\n@@ -1 +1 @@\n-a\n+b\n",
        },
      ],
    });
    expect(only(events, "item.completed", "mcp_tool_call").details).toEqual({
      server: "docs",
      tool: "lookup",
      arguments: { q: "x" },
      result: { content: [{ type: "text", text: "found" }], is_error: false },
    });
    // web_search_begin carries only the call id; the end brings the query.
    expect(only(events, "item.started", "web_search").details).toBeUndefined();
    expect(only(events, "item.completed", "web_search").details).toEqual({ query: "codex rollout format" });
    const collab = items(events, "item.completed", "collab_agent_tool_call");
    expect(collab.map((item) => item.details)).toEqual([{ prompt: "check tests" }, undefined]);
    expect(items(events, "item.completed", "assistant_message").map((item) => item.details)).toEqual([
      { text: "Done: a.txt fixed." },
      { text: "Found it." },
    ]);
  });
});

describe("codex-rollout details on the recorded fixtures", () => {
  it("shell: exec_command's `cmd` starts the item; the CommandExecution event completes it", () => {
    const events = rollout("shell");
    const started = only(events, "item.started", "command_execution");
    expect(started.title).toBe("echo mock-shell-output");
    // The function call carries `{cmd}` only: no wrapper and no workdir to report yet.
    expect(started.details).toEqual({ command: "echo mock-shell-output" });
    expect(only(events, "item.completed", "command_execution").details).toEqual({
      command: "echo mock-shell-output",
      shell: "/bin/bash -lc",
      cwd: "/tmp/codex-rollout-cwd-xurWDT",
      exitCode: 0,
      durationMs: 0.005508,
    });
  });

  it("edit: apply_patch's `*** Add File:` header starts the item; the FileChange event completes it", () => {
    const events = rollout("edit");
    const started = only(events, "item.started", "file_change");
    expect(started.title).toBe("mock-edit.txt");
    expect(started.details).toEqual({
      changes: [
        {
          path: "mock-edit.txt",
          kind: "add",
          diff: "--- /dev/null\n+++ b/mock-edit.txt\n@@ -0,0 +1,1 @@\n+written by the mock model\n",
        },
      ],
    });
    // The event names the file by its absolute path; its changes replace the patch's.
    const completed = only(events, "item.completed", "file_change");
    const changes = completed.itemType === "file_change" ? completed.details?.changes : undefined;
    expect(changes?.map(({ path, kind }) => ({ path, kind }))).toEqual([
      { path: "/tmp/codex-rollout-cwd-2RFktl/mock-edit.txt", kind: "add" },
    ]);
    expect(completed.title).toBe("/tmp/codex-rollout-cwd-2RFktl/mock-edit.txt");
  });

  it("question: request_user_input as a dynamic tool call with its arguments and its output", () => {
    const completed = only(rollout("question"), "item.completed", "dynamic_tool_call");
    const details = completed.itemType === "dynamic_tool_call" ? completed.details : undefined;
    expect(details?.tool).toBe("request_user_input");
    expect(details?.arguments).toMatchObject({ questions: [{ id: "mock_colour", header: "Colour" }] });
    expect(details?.result).toBe("request_user_input is unavailable in Default mode");
  });

  it("hand-written 0.40 shape: the shell call's argv, the output's exit code and duration", () => {
    const completed = only(rollout("hand-written-legacy-0.40-shape"), "item.completed", "command_execution");
    // The call has no `workdir`, so no cwd.
    expect(completed.details).toEqual({ command: "ls", shell: "bash -lc", exitCode: 0, durationMs: 0 });
    expect(completed.title).toBe("ls");
  });
});

const REAL_ROLLOUT = "/work/shared/fixtures/real/codex-rollout-0.40-agentcmd.jsonl";

describe.skipIf(!existsSync(REAL_ROLLOUT))(
  "codex-rollout: a real 0.40 rollout (read in place, not copied)",
  () => {
    it("every completed command has its command, cwd and exit code; the stream is valid", () => {
      const events = replay(codexRolloutDefinition, readLines(REAL_ROLLOUT));
      for (const event of events) expect(RuntimeEventSchema.safeParse(event).success).toBe(true);
      expect(verifyEvents(events)).toEqual([]);
      const commands = items(events, "item.completed", "command_execution");
      expect(commands.length).toBeGreaterThan(0);
      for (const item of commands) {
        const details = item.itemType === "command_execution" ? item.details : undefined;
        expect(details?.command.length).toBeGreaterThan(0);
        expect(details?.shell).toBe("bash -lc");
        expect(details?.cwd).toBe(".");
        expect(details?.exitCode).toBeTypeOf("number");
        expect(item.title).toBe(details?.command);
      }
      for (const item of items(events, "item.completed", "file_change")) {
        const changes = item.itemType === "file_change" ? item.details?.changes : undefined;
        expect(changes?.length).toBeGreaterThan(0);
        for (const change of changes ?? []) expect(change.path.length).toBeGreaterThan(0);
      }
    });
  },
);
