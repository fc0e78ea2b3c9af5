import { describe, expect, it } from "vitest";
import { decisionOfOption, outcomeForDecision } from "../../../src/providers/acp/permission-options.js";

/** The options claude-agent-acp offers for ExitPlanMode (its acp-agent.js), bypass allowed. */
const EXIT_PLAN_MODE = [
  { kind: "allow_always", name: "Yes, and bypass permissions", optionId: "bypassPermissions" },
  { kind: "allow_always", name: "Yes, and auto-accept edits", optionId: "acceptEdits" },
  { kind: "allow_once", name: "Yes, and manually approve edits", optionId: "default" },
  { kind: "reject_once", name: "No, keep planning", optionId: "plan" },
];
const TOOL_CALL = [
  { kind: "allow_always", name: "Always Allow", optionId: "allow_always" },
  { kind: "allow_once", name: "Allow", optionId: "allow" },
  { kind: "reject_once", name: "Reject", optionId: "reject" },
];

describe("ACP permission options", () => {
  it("acceptForSession never picks an option that widens the agent's mode; it falls back to the one-call answer", () => {
    expect(outcomeForDecision(EXIT_PLAN_MODE, "acceptForSession")).toEqual({
      outcome: "selected",
      optionId: "default",
    });
    expect(outcomeForDecision(EXIT_PLAN_MODE, "accept")).toEqual({
      outcome: "selected",
      optionId: "default",
    });
    expect(outcomeForDecision(EXIT_PLAN_MODE, "decline")).toEqual({ outcome: "selected", optionId: "plan" });
  });

  it("a host names a mode option explicitly with payload.optionId", () => {
    expect(outcomeForDecision(EXIT_PLAN_MODE, "accept", "bypassPermissions")).toEqual({
      outcome: "selected",
      optionId: "bypassPermissions",
    });
    expect(outcomeForDecision(EXIT_PLAN_MODE, "accept", "not-offered")).toEqual({
      outcome: "selected",
      optionId: "default",
    });
  });

  it("an ordinary tool call's allow_always stays the acceptForSession answer", () => {
    expect(outcomeForDecision(TOOL_CALL, "acceptForSession")).toEqual({
      outcome: "selected",
      optionId: "allow_always",
    });
    expect(outcomeForDecision(TOOL_CALL, "accept")).toEqual({ outcome: "selected", optionId: "allow" });
    expect(outcomeForDecision(TOOL_CALL, "cancel")).toEqual({ outcome: "cancelled" });
    expect(outcomeForDecision([{ kind: "allow_always", optionId: "bypassPermissions" }], "accept")).toEqual({
      outcome: "cancelled",
    });
    expect(decisionOfOption(TOOL_CALL, "allow_always")).toBe("acceptForSession");
  });
});
