import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent, RuntimeEventOf } from "../../../src/contracts/events.js";
import { ItemDetailsByType } from "../../../src/contracts/item-details.js";
import { SHELL_COMMAND } from "../../../src/mock-model/index.js";
import { CodexSdkMapper } from "../../../src/providers/codex-sdk/mapper.js";
import { deltaTextByItem } from "./fixture-checks.js";
import { replayCodexSdkTranscript } from "./replay.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/codex-sdk/", import.meta.url));
const SESSION = "ses_details_codex_sdk";
type ItemEvent = RuntimeEventOf<"item.started" | "item.updated" | "item.completed">;

const load = (name: string) =>
  replayCodexSdkTranscript(readFileSync(join(FIXTURES, `${name}.jsonl`), "utf8"), SESSION);

function items(events: readonly RuntimeEvent[], itemType: string): ItemEvent[] {
  return events.filter(
    (e): e is ItemEvent =>
      (e.type === "item.started" || e.type === "item.updated" || e.type === "item.completed") &&
      e.payload.itemType === itemType,
  );
}

function completed(events: readonly RuntimeEvent[], itemType: string): ItemEvent[] {
  return items(events, itemType).filter((e) => e.type === "item.completed");
}

/** The details of an item event, loosely typed for field-by-field assertions. */
function details(event: ItemEvent | undefined): Record<string, unknown> | undefined {
  return event?.payload.details as Record<string, unknown> | undefined;
}

describe("codex-sdk item details on the recorded fixtures", () => {
  const transcripts = readdirSync(FIXTURES).filter(
    (name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl"),
  );

  it.each(transcripts)("%s: every item event of a detailed type carries details", (name) => {
    const events = replayCodexSdkTranscript(readFileSync(join(FIXTURES, name), "utf8"), SESSION);
    const itemEvents = events.filter(
      (e) => e.type === "item.started" || e.type === "item.updated" || e.type === "item.completed",
    );
    expect(itemEvents.length).toBeGreaterThan(0);
    for (const event of itemEvents) {
      if (Object.hasOwn(ItemDetailsByType, event.payload.itemType))
        expect(event.payload.details, `${name} ${event.eventId}`).toBeDefined();
    }
  });

  it.each(transcripts)("%s: message and reasoning details.text is the streamed text", (name) => {
    const events = replayCodexSdkTranscript(readFileSync(join(FIXTURES, name), "utf8"), SESSION);
    const deltas = deltaTextByItem(events);
    for (const type of ["assistant_message", "reasoning"]) {
      for (const event of completed(events, type)) {
        expect(details(event)?.text).toBe(deltas.get(event.itemId));
      }
    }
  });

  it("shell: the command unwrapped exactly, its shell, exit code 0; no cwd or duration (exec has neither)", () => {
    const events = load("shell");
    const started = items(events, "command_execution").find((e) => e.type === "item.started");
    const done = completed(events, "command_execution")[0];
    expect(done?.payload.title).toBe(SHELL_COMMAND);
    // exec's JSONL has no working directory and no duration, and the output streams as command_output deltas.
    expect(details(done)).toEqual({ command: SHELL_COMMAND, shell: "/bin/bash -lc", exitCode: 0 });
    // Still running: exec leaves exit_code out, so does the started item.
    expect(details(started)).toEqual({ command: SHELL_COMMAND, shell: "/bin/bash -lc" });
    expect(started?.payload.title).toBe(SHELL_COMMAND);
  });

  it("edit: the change's path and kind, the path as title; no diff (exec's JSONL carries none)", () => {
    const events = load("edit");
    const changes = items(events, "file_change");
    expect(changes.map((e) => e.type)).toEqual(["item.started", "item.completed"]);
    for (const event of changes) {
      const list = (details(event)?.changes ?? []) as Array<Record<string, unknown>>;
      expect(list).toHaveLength(1);
      const change = list[0];
      expect(change?.path).toMatch(/^\/tmp\/codex-sdk-cwd-[^/]+\/mock-edit\.txt$/);
      expect(change?.kind).toBe("add");
      expect(change).not.toHaveProperty("diff");
      expect(change).not.toHaveProperty("movePath");
      expect(event.payload.title).toBe(change?.path);
    }
  });

  it("interrupt: the command the turn's end fails keeps its title and details, without an exit code", () => {
    const done = completed(load("interrupt"), "command_execution")[0];
    expect(done?.payload.status).toBe("failed");
    expect(done?.payload.title).toBe("sleep 3");
    // exec reported `exit_code: null` while it ran and never a code: the run was aborted.
    expect(details(done)).toEqual({ command: "sleep 3", shell: "/bin/bash -lc" });
  });

  it("error-item: details.message is exec's whole message, the title its first line", () => {
    const errors = completed(load("error-item"), "error");
    expect(errors).toHaveLength(2);
    for (const event of errors) {
      expect(details(event)?.message).toMatch(
        /^Codex is ignoring 1 unrecognized configuration setting\.[\s\S]*session-flags: `unknown_setting_for_fixture` is ignored\.$/,
      );
      expect(event.payload.title).toBe(
        "Codex is ignoring 1 unrecognized configuration setting. Check for typos or deprecated settings.",
      );
    }
  });

  it("user_message: details.text is the host's prompt", () => {
    const prompts = completed(load("multi-turn"), "user_message").map((e) => details(e)?.text);
    expect(prompts).toEqual(["mock:text first turn", "mock:shell second turn runs a command"]);
  });

  it("plan: a to-do list has no text (details.text absent); its steps are the turn's plan", () => {
    const events = load("plan");
    for (const event of items(events, "plan")) expect(details(event)).toEqual({});
  });

  it("hand-written: MCP server, tool, arguments, result and error; web search query", () => {
    const events = load("hand-written-mcp-web-search-updates");
    const [lookup, broken] = completed(events, "mcp_tool_call");
    expect(details(lookup)).toEqual({
      server: "docs",
      tool: "lookup",
      arguments: { q: "ThreadEvent" },
      result: { content: [{ type: "text", text: "8 event types" }], structured_content: null },
    });
    expect(lookup?.payload.title).toBe("docs.lookup");
    expect(details(broken)).toEqual({ server: "docs", tool: "broken", arguments: {}, error: "tool failed" });
    expect(broken?.payload.status).toBe("failed");
    const search = completed(events, "web_search")[0];
    // exec reports the query only, never a page's url.
    expect(details(search)).toEqual({ query: "codex sdk thread events" });
    const command = completed(events, "command_execution")[0];
    expect(details(command)).toEqual({ command: "seq 3", shell: "bash -lc", exitCode: 0 });
    const updates = items(events, "command_execution").filter((e) => e.type === "item.updated");
    for (const update of updates) expect(details(update)).toEqual({ command: "seq 3", shell: "bash -lc" });
  });
});

describe("codex-sdk item details from hand-written records", () => {
  function mapRecords(records: unknown[]): RuntimeEvent[] {
    const mapper = new CodexSdkMapper({ sessionId: SESSION });
    return records.flatMap((msg) => mapper.map({ kind: "message", dir: "in", msg }));
  }
  const open = [{ type: "thread.started", thread_id: "t-hand" }, { type: "turn.started" }];

  it("an older `codex exec --json` command line with a bare script (`zsh -lc pwd`) is unwrapped", () => {
    const events = mapRecords([
      ...open,
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "zsh -lc pwd",
          aggregated_output: "/w\n",
          exit_code: 2,
          status: "failed",
        },
      },
    ]);
    const done = completed(events, "command_execution")[0];
    expect(done?.payload.title).toBe("pwd");
    expect(details(done)).toEqual({ command: "pwd", shell: "zsh -lc", exitCode: 2 });
    expect(done?.payload.status).toBe("failed");
  });

  it("a command that is not a shell wrapper stays as exec wrote it; `sh -c echo hi` runs echo alone", () => {
    const events = mapRecords([
      ...open,
      {
        type: "item.started",
        item: {
          id: "a",
          type: "command_execution",
          command: "git status",
          aggregated_output: "",
          status: "in_progress",
        },
      },
      {
        type: "item.started",
        item: {
          id: "b",
          type: "command_execution",
          command: "sh -c echo hi",
          aggregated_output: "",
          status: "in_progress",
        },
      },
    ]);
    const [a, b] = items(events, "command_execution");
    expect(details(a)).toEqual({ command: "git status" });
    expect(details(b)).toEqual({ command: "sh -c echo hi" });
  });

  it("file changes: every path in the title; a change without a kind exec defines is left out of details", () => {
    const events = mapRecords([
      ...open,
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "file_change",
          changes: [
            { path: "/w/a.ts", kind: "update" },
            { path: "/w/b.ts", kind: "delete" },
            { path: "/w/c.ts", kind: "rename" },
            { path: "/w/d.ts" },
          ],
          status: "completed",
        },
      },
    ]);
    const done = completed(events, "file_change")[0];
    expect(done?.payload.title).toBe("/w/a.ts, /w/b.ts, /w/c.ts, /w/d.ts");
    expect(details(done)).toEqual({
      changes: [
        { path: "/w/a.ts", kind: "update" },
        { path: "/w/b.ts", kind: "delete" },
      ],
    });
  });

  it("an MCP call without a server or tool has no details (nothing guessed); an exit code that is no integer is dropped", () => {
    const events = mapRecords([
      ...open,
      {
        type: "item.completed",
        item: { id: "m", type: "mcp_tool_call", tool: "lookup", arguments: {}, status: "completed" },
      },
      {
        type: "item.completed",
        item: {
          id: "c",
          type: "command_execution",
          command: "ls",
          aggregated_output: "",
          exit_code: 1.5,
          status: "completed",
        },
      },
    ]);
    const mcp = completed(events, "mcp_tool_call")[0];
    expect(mcp?.payload.details).toBeUndefined();
    expect(mcp?.payload.title).toBe("lookup");
    expect(details(completed(events, "command_execution")[0])).toEqual({ command: "ls" });
  });
});
