import { describe, expect, it } from "vitest";
import { KeyJoiner } from "../../src/kit/key-joiner.js";

describe("KeyJoiner", () => {
  it("joins like a template literal and returns the same string while the parts repeat", () => {
    const keys = new KeyJoiner("|");
    const first = keys.join("main", "msg_1", 0);
    expect(first).toBe("main|msg_1|0");
    expect(keys.join("main", `msg_${1}`, 0)).toBe(first);
    const cases: Array<[string, string, (string | number)?]> = [
      ["main", "msg_1", 1],
      ["main", "msg_2", 1],
      ["tool_1", "msg_2", 1],
      ["tool_1", "msg_2"],
      ["tool_1", "msg_2", ""],
      ["", "", 0],
      ["", ""],
    ];
    for (const [a, b, c] of cases)
      expect(keys.join(a, b, c)).toBe(c === undefined ? `${a}|${b}` : `${a}|${b}|${c}`);
  });
});
