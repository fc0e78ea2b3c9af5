import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { RuntimeEventSchema } from "../../../src/contracts/events.js";
import { arr, isObject, str } from "../../../src/kit/guards.js";
import { parseTranscriptLine } from "../../../src/kit/transcript.js";
import { CodexAppServerMapper, shapeOf } from "../../../src/providers/codex/app-server-mapper.js";
import { verifyEvents } from "../../../src/verify/index.js";
import { replayCodexAppServer } from "./replay.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/codex/", import.meta.url));
const SESSION = "ses_golden_codex";
const transcripts = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".jsonl") && !name.endsWith(".expected.jsonl"))
  .sort();
const toJsonl = (events: readonly unknown[]) => `${events.map((e) => JSON.stringify(e)).join("\n")}\n`;

/** What the native inbound traffic says, to check the canonical stream against. */
function nativeFacts(transcript: string) {
  const facts = { inbound: 0, serverRequests: 0, items: new Set<string>(), nativeIds: new Set<string>() };
  const agentText = new Map<string, string>();
  for (const line of transcript.split("\n")) {
    const entry = parseTranscriptLine(line);
    if (entry?.kind !== "message" || entry.dir !== "in" || !isObject(entry.msg)) continue;
    facts.inbound++;
    const msg = entry.msg;
    if (shapeOf(msg) === "request") facts.serverRequests++;
    const params = isObject(msg.params) ? msg.params : {};
    for (const id of [params.threadId, params.turnId, params.itemId])
      if (str(id)) facts.nativeIds.add(id as string);
    const item = isObject(params.item) ? params.item : undefined;
    const itemId = str(item?.id);
    if (itemId === undefined || item === undefined) continue;
    facts.items.add(`${str(params.threadId)}/${itemId}`);
    facts.nativeIds.add(itemId);
    if (msg.method === "item/completed" && item.type === "agentMessage")
      agentText.set(itemId, str(item.text) ?? "");
  }
  return { ...facts, agentText };
}

function deltasByItem(events: readonly RuntimeEvent[], kind: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events)
    if (e.type === "content.delta" && e.payload.streamKind === kind && e.itemId !== undefined)
      out.set(e.itemId, (out.get(e.itemId) ?? "") + e.payload.delta);
  return out;
}

/** The stream ends with the turn's end, then the session back to ready and the thread idle (DESIGN.md §2). */
function expectTurnEnd(events: readonly RuntimeEvent[], state: string): void {
  expect(events.slice(-3).map((e) => [e.type, (e.payload as { state?: string }).state])).toEqual([
    ["turn.completed", state],
    ["session.state.changed", "ready"],
    ["thread.state.changed", "idle"],
  ]);
}

describe("codex app-server fixtures", () => {
  it("has the recorded scenarios", () => {
    for (const name of [
      "text",
      "reasoning",
      "shell",
      "shell-declined",
      "edit",
      "multi-turn",
      "cutoff",
      "long",
      "subagent",
    ])
      expect(transcripts).toContain(`${name}.jsonl`);
  });

  describe.each(transcripts)("%s", (name) => {
    const transcript = readFileSync(join(FIXTURES, name), "utf8");
    const events = replayCodexAppServer(transcript, SESSION);
    const facts = nativeFacts(transcript);

    it("matches its golden file, and a second replay is byte-identical", () => {
      const output = toJsonl(events);
      expect(toJsonl(replayCodexAppServer(transcript, SESSION))).toBe(output);
      const expectedPath = join(FIXTURES, name.replace(/\.jsonl$/, ".expected.jsonl"));
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(expectedPath)) writeFileSync(expectedPath, output);
      expect(output).toBe(readFileSync(expectedPath, "utf8"));
    });

    it("is schema-valid, numbered 1..n, passes verify, and has no warnings", () => {
      events.forEach((event, index) => {
        RuntimeEventSchema.parse(event);
        expect(event.sequence).toBe(index + 1);
      });
      expect(verifyEvents(events)).toEqual([]);
      expect(events.filter((e) => e.type === "runtime.warning")).toEqual([]);
    });

    it("maps every inbound record to at least one event carrying its raw", () => {
      const mapper = new CodexAppServerMapper({ sessionId: SESSION });
      for (const line of transcript.split("\n")) {
        const entry = parseTranscriptLine(line);
        if (entry === undefined) continue;
        const out = mapper.map(entry);
        if (entry.kind === "message" && entry.dir === "in") {
          expect(out.length).toBeGreaterThan(0);
          for (const event of out) expect(event.raw?.payload).toBeDefined();
        }
      }
    });

    it("starts one item per native item and streams assistant text exactly", () => {
      const started = events.filter((e) => e.type === "item.started");
      expect(started.length).toBe(facts.items.size);
      expect(new Set(started.map((e) => e.itemId)).size).toBe(started.length);
      const deltas = deltasByItem(events, "assistant_text");
      const completed = events.filter(
        (e) =>
          e.type === "item.completed" &&
          e.payload.itemType === "assistant_message" &&
          e.payload.status === "completed",
      );
      expect([...completed.map((e) => deltas.get(e.itemId ?? "") ?? "")].sort()).toEqual(
        [...facts.agentText.values()].sort(),
      );
    });

    it("opens and resolves every server request once, typed, and ends every turn once", () => {
      const opened = events.filter((e) => e.type === "request.opened");
      const resolved = events.filter((e) => e.type === "request.resolved");
      expect(opened.length).toBe(facts.serverRequests);
      expect(resolved.map((e) => e.requestId).sort()).toEqual(opened.map((e) => e.requestId).sort());
      for (const e of opened) expect(e.payload.requestType).not.toBe("unknown");
      const turnsStarted = events.filter((e) => e.type === "turn.started").map((e) => e.turnId);
      const turnsEnded = events.filter((e) => e.type === "turn.completed").map((e) => e.turnId);
      expect(turnsEnded.sort()).toEqual(turnsStarted.sort());
      expect(turnsStarted.length).toBeGreaterThan(0);
    });

    it("never uses a native id as a canonical id", () => {
      for (const e of events)
        for (const id of [e.threadId, e.turnId, e.itemId, e.requestId])
          if (id !== undefined) expect(facts.nativeIds.has(id)).toBe(false);
    });
  });

  it("shell: approval accepted, command output visible, turn completed", () => {
    const events = replayCodexAppServer(readFileSync(join(FIXTURES, "shell.jsonl"), "utf8"), SESSION);
    const types = events.map((e) => e.type);
    const opened = events.find((e) => e.type === "request.opened");
    const resolved = events.find((e) => e.type === "request.resolved");
    expect(opened?.payload).toMatchObject({ requestType: "command_execution_approval" });
    expect(resolved).toMatchObject({ requestId: opened?.requestId, payload: { decision: "accept" } });
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect(command?.payload).toMatchObject({
      status: "completed",
      data: { aggregatedOutput: "mock-shell-output\n" },
    });
    expect(types.indexOf("request.resolved")).toBeLessThan(events.indexOf(command as RuntimeEvent));
    expectTurnEnd(events, "completed");
    const usage = events.find((e) => e.type === "thread.token-usage.updated");
    expect(usage?.payload.usage).toMatchObject({
      total: { inputTokens: expect.any(Number) },
      modelContextWindow: 258400,
    });
  });

  it("shell-declined: decline resolves the request and the command item is declined", () => {
    const events = replayCodexAppServer(
      readFileSync(join(FIXTURES, "shell-declined.jsonl"), "utf8"),
      SESSION,
    );
    expect(events.find((e) => e.type === "request.resolved")?.payload).toMatchObject({ decision: "decline" });
    const command = events.find(
      (e) => e.type === "item.completed" && e.payload.itemType === "command_execution",
    );
    expect((command?.payload as { status?: string } | undefined)?.status).toBe("declined");
  });

  it("edit: a file change approval and a diff", () => {
    const events = replayCodexAppServer(readFileSync(join(FIXTURES, "edit.jsonl"), "utf8"), SESSION);
    expect(events.find((e) => e.type === "request.opened")?.payload.requestType).toBe("file_change_approval");
    expect(
      events.some((e) => e.type === "turn.diff.updated" && e.payload.unifiedDiff.includes("mock-edit.txt")),
    ).toBe(true);
    const change = events.find((e) => e.type === "item.completed" && e.payload.itemType === "file_change");
    expect(
      arr((change?.payload as { data?: { changes?: unknown } } | undefined)?.data?.changes)?.length,
    ).toBe(1);
  });

  it("cutoff: retries are runtime errors, the turn fails, no item is left open", () => {
    const events = replayCodexAppServer(readFileSync(join(FIXTURES, "cutoff.jsonl"), "utf8"), SESSION);
    expect(events.filter((e) => e.type === "runtime.error").length).toBeGreaterThan(1);
    expectTurnEnd(events, "failed");
    const open = new Set<string>();
    for (const e of events) {
      if (e.type === "item.started" && e.itemId) open.add(e.itemId);
      if (e.type === "item.completed" && e.itemId) open.delete(e.itemId);
    }
    expect(open.size).toBe(0);
  });
});
