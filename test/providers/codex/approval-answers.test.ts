import { describe, expect, it } from "vitest";
import type { ApprovalDecision } from "../../../src/contracts/enums.js";
import { CODEX_SERVER_REQUESTS } from "../../../src/providers/codex/app-server-requests.js";
import { decisionOfReply, nativeAnswer } from "../../../src/providers/codex/approval-answers.js";

const DECISIONS: ApprovalDecision[] = ["accept", "acceptForSession", "decline", "cancel"];

describe("approval answers", () => {
  it("maps canonical decisions to the native command, file-change and legacy ReviewDecision forms", () => {
    const command = (d: ApprovalDecision, params = {}) =>
      nativeAnswer("item/commandExecution/requestApproval", params, { decision: d });
    expect(DECISIONS.map((d) => command(d))).toEqual(DECISIONS.map((d) => ({ result: { decision: d } })));
    const amendment = { acceptWithExecpolicyAmendment: { execpolicy_amendment: ["echo"] } };
    expect(command("acceptForSession", { availableDecisions: ["accept", amendment, "cancel"] })).toEqual({
      result: { decision: amendment },
    });
    expect(nativeAnswer("item/fileChange/requestApproval", {}, { decision: "cancel" })).toEqual({
      result: { decision: "cancel" },
    });
    const legacy = DECISIONS.map((d) =>
      nativeAnswer("execCommandApproval", {}, { decision: d, message: "no" }),
    );
    expect(legacy).toEqual([
      { result: { decision: "approved" } },
      { result: { decision: "approved_for_session" } },
      { result: { decision: { denied: { rejection: "no" } } } },
      { result: { decision: "abort" } },
    ]);
  });

  it("grants requested permissions, answers questions, elicitations and dynamic tool calls", () => {
    const permissions = { network: { enabled: true } };
    expect(
      nativeAnswer("item/permissions/requestApproval", { permissions }, { decision: "acceptForSession" }),
    ).toEqual({
      result: { permissions, scope: "session" },
    });
    expect(
      nativeAnswer("item/permissions/requestApproval", { permissions }, { decision: "decline" }),
    ).toEqual({
      result: { permissions: {}, scope: "turn" },
    });
    expect(
      nativeAnswer(
        "item/tool/requestUserInput",
        {},
        { decision: "accept", answers: { q1: "yes", q2: ["a", "b"] } },
      ),
    ).toEqual({ result: { answers: { q1: { answers: ["yes"] }, q2: { answers: ["a", "b"] } } } });
    expect(nativeAnswer("mcpServer/elicitation/request", {}, { decision: "decline" })).toEqual({
      result: { action: "decline", content: null },
    });
    expect(nativeAnswer("item/tool/call", {}, { decision: "decline" })).toMatchObject({
      result: { success: false },
    });
    expect(nativeAnswer("account/chatgptAuthTokens/refresh", {}, { decision: "accept" })).toHaveProperty(
      "error",
    );
    expect(nativeAnswer("attestation/generate", {}, { decision: "accept", payload: { token: "t" } })).toEqual(
      {
        result: { token: "t" },
      },
    );
  });

  it.each(Object.keys(CODEX_SERVER_REQUESTS))(
    "%s: a reply reads back as the decision it was made from",
    (method) => {
      const params = { permissions: { network: { enabled: true } } };
      for (const decision of DECISIONS) {
        const reply = nativeAnswer(method, params, {
          decision,
          answers: { q: "a" },
          payload: { token: "t", accessToken: "a", chatgptAccountId: "c" },
        });
        const read = decisionOfReply(method, reply as Record<string, unknown>);
        const accepted = decision === "accept" || decision === "acceptForSession";
        expect(read === "accept" || read === "acceptForSession", `${method} ${decision} → ${read}`).toBe(
          accepted,
        );
      }
    },
  );
});
