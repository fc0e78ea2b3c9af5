import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventDocsInput, renderEventDocs, typeOf } from "../../scripts/event-docs.js";
import { EVENT_TYPE_DESCRIPTIONS } from "../../src/contracts/event-descriptions.js";
import { RUNTIME_EVENT_TYPES } from "../../src/contracts/event-types.js";

const input = eventDocsInput();
const rendered = renderEventDocs(input);
const section = (type: string) => {
  const start = rendered.indexOf(`### \`${type}\`\n`);
  const end = rendered.indexOf("\n### ", start + 1);
  return start < 0 ? "" : rendered.slice(start, end < 0 ? undefined : end);
};

describe("docs/events.md", () => {
  it("is up to date (npx tsx scripts/write-event-docs.ts)", () => {
    const file = readFileSync(new URL("../../docs/events.md", import.meta.url), "utf8");
    expect(file).toBe(rendered);
  });

  it("has a section per event type, in RUNTIME_EVENT_TYPES order, with its description", () => {
    const positions = RUNTIME_EVENT_TYPES.map((type) => rendered.indexOf(`### \`${type}\`\n`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const type of RUNTIME_EVENT_TYPES) expect(section(type)).toContain(EVENT_TYPE_DESCRIPTIONS[type]);
  });

  it("lists required ids, payload fields, emitting sources and the kit's part", () => {
    expect(section("turn.completed")).toContain("Required ids: `turnId`.");
    expect(section("turn.completed")).toMatch(
      /\| stopReason \| string \\\| null \| no \| The provider's own reason/,
    );
    expect(section("turn.completed")).toContain("- `claude-sdk`: ");
    expect(section("turn.completed")).toContain("src/kit/lifecycle-tracker.ts");
    expect(section("session.state.changed")).toContain("src/kit/state-semantics.ts");
    expect(section("turn.aborted")).toContain("- no source today.");
    expect(section("files.persisted")).toMatch(/\| files\[\]\.fileId \| string \| yes \|/);
    expect(rendered).toMatch(/\| threadId \| string \| on `thread\.started` \|/);
    expect(rendered).toMatch(
      /\| changes\[\]\.kind \| `add` \\\| `update` \\\| `delete` \\\| `move` \| yes \|/,
    );
    expect(rendered).toContain("### Details of user_message, assistant_message, reasoning, plan");
  });

  it("follows the coverage tables it is given", () => {
    const moved = renderEventDocs({
      ...input,
      sources: [{ source: "example-source", kinds: [{ kind: "example/kind", yields: ["turn.aborted"] }] }],
    });
    expect(moved).toContain("- `example-source`: `example/kind`");
    expect(moved).not.toContain("`codex-app-server`:");
  });

  it("summarizes JSON Schema types", () => {
    expect(typeOf({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(typeOf({ type: ["string", "null"] })).toBe("string \\| null");
    expect(typeOf({})).toBe("any");
    expect(typeOf({ const: "x" })).toBe('`"x"`');
    expect(typeOf({ type: "object", additionalProperties: {} })).toBe("record (string keys, any values)");
  });
});
