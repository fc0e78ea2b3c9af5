import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LiveThread } from "../../inspector/src/live-thread.js";
import { readQuestions } from "../../inspector/src/questions.js";
import { nativeOptions } from "../../inspector/src/request-options.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { projectEvents } from "../../src/projection/reducer.js";
import { REPO } from "./support/browser.js";

const stream = (path: string): RuntimeEvent[] =>
  readFileSync(join(REPO, path), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RuntimeEvent);

it("the page's code imports no Node built-in (it runs in a browser)", () => {
  const dir = join(REPO, "inspector/src");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f));
  expect(files.length).toBeGreaterThan(10);
  const offending = files.filter((f) =>
    /from\s+"node:|from\s+"(fs|path|os|child_process)"/.test(readFileSync(join(dir, f), "utf8")),
  );
  expect(offending).toEqual([]);
});

describe("LiveThread", () => {
  it("folds a stream delivered twice over (a reconnect replaying what it had) into the view of one delivery", () => {
    const events = stream("test/fixtures/claude/subagent.expected.jsonl");
    const thread = new LiveThread();
    const half = Math.floor(events.length / 2);
    let applied = 0;
    for (const event of [...events.slice(0, half + 5), ...events.slice(half - 3), ...events]) {
      if (thread.accept(event)) applied++;
    }
    expect(applied).toBe(events.length);
    expect(thread.lastSequence).toBe(events.length);
    expect(JSON.stringify(thread.view)).toBe(JSON.stringify(projectEvents(events)));
  });

  it("nests a subagent's items under the item that spawned it and bumps the parent when a child changes", () => {
    const events = stream("test/fixtures/claude/subagent.expected.jsonl");
    const thread = new LiveThread();
    const spawnerEvent = events.find(
      (e) => e.type === "item.started" && e.payload.itemType === "collab_agent_tool_call",
    );
    const spawner = spawnerEvent?.itemId as string;
    const firstChild = events.findIndex((e) => e.parentItemId === spawner && e.itemId !== undefined);
    for (const event of events.slice(0, firstChild)) thread.accept(event);
    const before = thread.itemVersion(spawner);
    thread.accept(events[firstChild] as RuntimeEvent);
    expect(thread.itemVersion(spawner)).toBeGreaterThan(before);
    for (const event of events.slice(firstChild + 1)) thread.accept(event);
    const children = thread.children(spawner);
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((c) => !thread.isTopLevel(c))).toBe(true);
  });

  it("survives hostile events: no sequence, a parent cycle, a payload the reducer chokes on", () => {
    const thread = new LiveThread();
    const base = { provider: "codex", sessionId: "s", createdAt: "2026-01-01T00:00:00Z", turnId: "t" };
    thread.accept({ ...base, type: "item.started", itemId: "a", parentItemId: "b", payload: {} } as never);
    thread.accept({ ...base, type: "item.started", itemId: "b", parentItemId: "a", payload: {} } as never);
    thread.accept({ ...base, sequence: 3, type: "turn.completed", payload: null } as never);
    thread.accept({
      ...base,
      sequence: 4,
      type: "content.delta",
      itemId: "a",
      payload: { delta: "x" },
    } as never);
    expect(thread.rejected).toBe(1);
    expect(thread.lastSequence).toBe(4);
    expect(thread.itemVersion("a")).toBe(thread.version);
  });
});

describe("readQuestions", () => {
  const questionsOf = (path: string) =>
    stream(path).find((e) => e.type === "user-input.requested")?.payload as { questions: unknown };

  it("reads Claude's AskUserQuestion list: the question as key, its header and choices", () => {
    const [q] = readQuestions(questionsOf("test/fixtures/claude/question.expected.jsonl").questions);
    expect(q?.id).toBe("Which colour should the mock use?");
    expect(q?.header).toBe("Colour");
    expect(q?.options.map((o) => o.label)).toEqual(["Blue (Recommended)", "Green"]);
  });

  it("reads Codex's list and an ACP-style {title, questions} record", () => {
    expect(
      readQuestions([
        { id: "q1", header: "Colour", question: "Which colour?", options: [{ label: "Blue" }] },
      ]),
    ).toMatchObject([
      { id: "q1", prompt: "Which colour?", options: [{ label: "Blue" }], multiSelect: false },
    ]);
    const acp = readQuestions({
      title: "Which folder?",
      questions: [{ id: "q1", prompt: "Which folder?", options: [{ id: "a", label: "root" }] }],
    });
    expect(acp).toEqual([
      { id: "q1", prompt: "Which folder?", options: [{ label: "root" }], multiSelect: false },
    ]);
  });

  it("gives nothing for shapes it does not know, and bounds a huge list", () => {
    expect(readQuestions(42)).toEqual([]);
    expect(readQuestions([null, 1, { options: [] }])).toEqual([]);
    const many = Array.from({ length: 10_000 }, (_, i) => ({ question: `q${i}`, options: [] }));
    expect(readQuestions(many)).toHaveLength(50);
  });
});

describe("nativeOptions", () => {
  it("labels ACP options by name with their kind, Claude's by decision and behaviour, Codex's by name or key", () => {
    expect(
      nativeOptions([{ decision: "acceptForSession", behavior: "allow", updatedPermissions: [] }]),
    ).toEqual([{ label: "acceptForSession", kind: "allow" }]);
    expect(nativeOptions([{ optionId: "allow-once", name: "Yes", kind: "allow_once" }, "decline"])).toEqual([
      { label: "Yes", kind: "allow_once" },
      { label: "decline" },
    ]);
    expect(nativeOptions([{ acceptWithExecpolicyAmendment: { x: 1 } }, null])).toEqual([
      { label: "acceptWithExecpolicyAmendment" },
    ]);
    expect(nativeOptions("not a list")).toEqual([]);
  });
});
