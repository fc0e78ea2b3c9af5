import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { isObject, str } from "../../../src/kit/guards.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { SHELL_COMMAND } from "../../../src/mock-model/index.js";
import { replayCodexAppServer } from "./replay.js";

/** Item details on the recorded fixtures, field by field (DESIGN.md §2: nothing guessed, nothing dropped). */
const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/codex/", import.meta.url));

type ItemEvent = Extract<RuntimeEvent, { type: "item.started" | "item.updated" | "item.completed" }>;

function load(name: string) {
  const transcript = readFileSync(join(FIXTURES, `${name}.jsonl`), "utf8");
  const events = replayCodexAppServer(transcript, "ses_details");
  return { transcript, events };
}

function itemEvents(events: readonly RuntimeEvent[], itemType: string): ItemEvent[] {
  return events.filter(
    (e): e is ItemEvent =>
      (e.type === "item.started" || e.type === "item.updated" || e.type === "item.completed") &&
      e.payload.itemType === itemType,
  );
}

function one(events: readonly RuntimeEvent[], type: ItemEvent["type"], itemType: string): ItemEvent {
  const found = itemEvents(events, itemType).filter((e) => e.type === type);
  expect(found, `${type} ${itemType}`).toHaveLength(1);
  return found[0] as ItemEvent;
}

/** The `cwd` of the first native commandExecution item (each fixture ran in its own temp directory). */
function nativeCwd(transcript: string): string | undefined {
  for (const line of transcript.split("\n")) {
    const entry = parseTranscriptLine(line);
    if (entry?.kind !== "message" || !isObject(entry.msg) || !isObject(entry.msg.params)) continue;
    const item = entry.msg.params.item;
    if (isObject(item) && item.type === "commandExecution") return str(item.cwd);
  }
  return undefined;
}

describe("codex app-server item details on the recorded fixtures", () => {
  it("shell: the command unwrapped from /bin/bash -lc, its cwd, exit code and duration once it ran", () => {
    const { transcript, events } = load("shell");
    const cwd = nativeCwd(transcript);
    expect(cwd).toMatch(/^\/tmp\/codex-fixture-/);
    const started = one(events, "item.started", "command_execution");
    expect(started.payload.title).toBe(SHELL_COMMAND);
    // While it runs Codex reports exitCode and durationMs as null: they stay absent.
    expect(started.payload.details).toEqual({
      command: SHELL_COMMAND,
      shell: "/bin/bash -lc",
      cwd,
    });
    const completed = one(events, "item.completed", "command_execution");
    expect(completed.payload.status).toBe("completed");
    expect(completed.payload.title).toBe(SHELL_COMMAND);
    expect(completed.payload.details).toEqual({
      command: SHELL_COMMAND,
      shell: "/bin/bash -lc",
      cwd,
      exitCode: 0,
      // The recorded native durationMs: how long this recording's command took.
      durationMs: nativeCommandDuration(transcript),
    });
    expect(one(events, "item.completed", "user_message").payload.details).toEqual({
      text: "mock:shell run a command",
    });
    // The message starts empty (its text streams as deltas) and completes with the whole text.
    expect(one(events, "item.started", "assistant_message").payload.details).toEqual({});
    expect(one(events, "item.completed", "assistant_message").payload.details).toEqual({
      text: "mock final answer: shell (saw mock-shell-output)",
    });
  });

  it("shell-declined: the declined command keeps command and cwd, and has no exit code or duration", () => {
    const { transcript, events } = load("shell-declined");
    const completed = one(events, "item.completed", "command_execution");
    expect(completed.payload.status).toBe("declined");
    expect(completed.payload.title).toBe(SHELL_COMMAND);
    // The command never ran: Codex reports exitCode and durationMs null, so neither is present.
    expect(completed.payload.details).toEqual({
      command: SHELL_COMMAND,
      shell: "/bin/bash -lc",
      cwd: nativeCwd(transcript),
    });
    expect(one(events, "item.completed", "assistant_message").payload.details).toEqual({
      text: "mock final answer: shell (no command output)",
    });
  });

  it("edit: one added file, titled by its path, with the new content as a unified diff", () => {
    const { events } = load("edit");
    for (const type of ["item.started", "item.completed"] as const) {
      const change = one(events, type, "file_change");
      const details = change.payload.details as { changes: Array<Record<string, unknown>> };
      expect(details.changes).toHaveLength(1);
      const [first] = details.changes;
      expect(first?.path).toMatch(/^\/tmp\/codex-fixture-[^/]+\/mock-edit\.txt$/);
      expect(change.payload.title).toBe(first?.path);
      expect(first?.kind).toBe("add");
      expect(first?.movePath).toBeUndefined();
      // Codex gives an added file's whole content as `diff`; the canonical diff is unified.
      const name = String(first?.path).slice(1);
      expect(first?.diff).toBe(`--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,1 @@\n+written by the mock model\n`);
    }
    expect(one(events, "item.completed", "file_change").payload.status).toBe("completed");
  });

  it("plan: the mock offers no plan tool, so there is no plan item; the messages carry their text", () => {
    const { events } = load("plan");
    expect(itemEvents(events, "plan")).toEqual([]);
    expect(one(events, "item.completed", "user_message").payload.details).toEqual({
      text: "mock:plan make a plan",
    });
    expect(one(events, "item.completed", "assistant_message").payload.details).toEqual({
      text: "mock final answer: plan (no plan tool offered)",
    });
  });

  it("reasoning: the summary is the reasoning's text once complete", () => {
    const { events } = load("reasoning");
    // Started with an empty summary and content: nothing to say yet.
    expect(one(events, "item.started", "reasoning").payload.details).toEqual({});
    expect(one(events, "item.completed", "reasoning").payload.details).toEqual({
      text: "Thinking about the mock request.",
    });
    expect(one(events, "item.completed", "assistant_message").payload.details).toEqual({
      text: "mock final answer: reasoning",
    });
  });

  it("multi-turn: each turn's items carry their own details", () => {
    const { transcript, events } = load("multi-turn");
    const users = itemEvents(events, "user_message").filter((e) => e.type === "item.completed");
    expect(users.map((e) => e.payload.details)).toEqual([
      { text: "mock:text first turn" },
      { text: "mock:shell second turn runs a command" },
    ]);
    const answers = itemEvents(events, "assistant_message").filter((e) => e.type === "item.completed");
    expect(answers.map((e) => e.payload.details)).toEqual([
      { text: "mock final answer: text" },
      { text: "mock final answer: shell (saw mock-shell-output)" },
    ]);
    expect(new Set(answers.map((e) => e.turnId)).size).toBe(2);
    const command = one(events, "item.completed", "command_execution");
    expect(command.turnId).toBe(answers[1]?.turnId);
    expect(command.payload.details).toMatchObject({
      command: "echo mock-shell-output",
      shell: "/bin/bash -lc",
      cwd: nativeCwd(transcript),
      exitCode: 0,
    });
  });

  it("cutoff: messages the failed turn cut off complete failed with the details they had (none yet)", () => {
    const { events } = load("cutoff");
    const cut = itemEvents(events, "assistant_message").filter((e) => e.type === "item.completed");
    expect(cut.length).toBeGreaterThan(1);
    for (const e of cut) {
      expect(e.payload.status).toBe("failed");
      // Their text only ever streamed as deltas; no native snapshot carried it.
      expect(e.payload.details).toEqual({});
    }
  });

  it("long: the completed message's text is exactly what streamed", () => {
    const { events } = load("long");
    const completed = one(events, "item.completed", "assistant_message");
    const streamed = events
      .filter((e) => e.type === "content.delta" && e.itemId === completed.itemId)
      .map((e) => (e.type === "content.delta" ? e.payload.delta : ""))
      .join("");
    expect((completed.payload.details as { text?: string }).text).toBe(streamed);
    expect(streamed).toMatch(/^mock final answer: long word1 /);
  });

  it.each(["text", "reasoning", "shell", "shell-declined", "edit", "plan", "multi-turn", "cutoff", "long"])(
    "%s: every item event of a detailed type from a native snapshot carries details",
    (name) => {
      const { events } = load(name);
      for (const e of events) {
        if (e.type !== "item.started" && e.type !== "item.completed") continue;
        expect(e.payload.details, `${e.type} ${e.payload.itemType} #${e.sequence}`).toBeDefined();
      }
    },
  );
});

/** The durationMs Codex reported on the completed commandExecution item of a transcript. */
function nativeCommandDuration(transcript: string): number | undefined {
  for (const line of transcript.split("\n")) {
    const item = (
      JSON.parse(line || "{}") as { msg?: { method?: string; params?: { item?: Record<string, unknown> } } }
    ).msg;
    const native = item?.method === "item/completed" ? item.params?.item : undefined;
    if (native?.type === "commandExecution" && typeof native.durationMs === "number")
      return native.durationMs;
  }
  return undefined;
}
