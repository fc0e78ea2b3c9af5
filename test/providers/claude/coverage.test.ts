import { describe, expect, it } from "vitest";
import { claudeSdkCoverage } from "../../../src/providers/claude/definition.js";
import { CLAUDE_IN_KINDS, kindOf } from "../../../src/providers/claude/message-table.js";
import { CLAUDE_SDK_VERSION } from "../../../src/providers/claude/records.js";
import { installedSdkDeclarations, sdkMessageKinds } from "./sdk-surface.js";
import { CLAUDE_0_2_62_KINDS } from "./surface-0.2.62.js";
import { replay } from "./test-helpers.js";

describe("claude-sdk coverage", () => {
  const installed = installedSdkDeclarations();
  const kinds = sdkMessageKinds(installed.text);

  it("reads the pinned SDK's SDKMessage union from its type declarations", () => {
    expect(installed.version).toBe(CLAUDE_SDK_VERSION);
    // 44 type/subtype variants; the two `user` variants (message and replay) share one kind.
    expect(kinds).toHaveLength(43);
    expect(kinds).toContain("system:permission_denied");
    expect(kinds).toContain("result:error_max_turns");
    expect(kinds).toContain("rate_limit_event");
  });

  it("handles every kind of the installed SDK and of 0.2.62", () => {
    const missing = [...new Set([...kinds, ...CLAUDE_0_2_62_KINDS])].filter(
      (kind) => !(kind in CLAUDE_IN_KINDS),
    );
    expect(missing).toEqual([]);
  });

  it("lists every registry row in coverage, with yields, and nothing unhandled", () => {
    const coverage = claudeSdkCoverage();
    expect(coverage.unhandled).toEqual([]);
    const listed = new Set(coverage.kinds.map((row) => row.kind));
    for (const kind of kinds) expect(listed).toContain(kind);
    for (const row of coverage.kinds) expect(row.yields.length).toBeGreaterThan(0);
  });

  it("maps each kind to at least one event of the types its row declares", () => {
    for (const kind of kinds) {
      const [type, subtype] = kind.split(":");
      const msg: Record<string, unknown> = { type, session_id: "s", uuid: "u" };
      if (subtype !== undefined) msg.subtype = subtype;
      expect(kindOf(msg)).toBe(kind);
      // A record that first names the session opens it (session.started, thread.started): map one before, and
      // judge only what the kind's own record yields.
      const opener = { type: "system", subtype: "status", status: null, session_id: "s" };
      const before = replay([{ kind: "message", dir: "in", msg: opener }]).length;
      const events = replay([
        { kind: "message", dir: "in", msg: opener },
        { kind: "message", dir: "in", msg },
      ]).slice(before);
      expect(events.length, kind).toBeGreaterThan(0);
      // Besides its row: the turn it may open, and the session/thread states the kit's state semantics put
      // around turns and requests (DESIGN §2), which no row declares.
      const declared = new Set([
        ...(CLAUDE_IN_KINDS[kind]?.yields ?? []),
        "turn.started",
        "session.state.changed",
        "thread.state.changed",
        "runtime.warning",
        "provider.event",
      ]);
      for (const event of events) expect(declared, `${kind} → ${event.type}`).toContain(event.type);
    }
  });

  it("warns once per unknown kind, and an unknown result subtype still ends its turn", () => {
    const events = replay([
      { kind: "message", dir: "in", msg: { type: "system", subtype: "brand_new" } },
      { kind: "message", dir: "in", msg: { type: "system", subtype: "brand_new" } },
      { kind: "message", dir: "in", msg: { type: "result", subtype: "error_brand_new", is_error: true } },
    ]);
    expect(events.filter((e) => e.type === "runtime.warning")).toHaveLength(2);
    expect(events.filter((e) => e.type === "provider.event")).toHaveLength(1);
    expect(events.filter((e) => e.type === "turn.completed")).toHaveLength(1);
  });
});
