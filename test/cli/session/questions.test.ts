import { describe, expect, it } from "vitest";
import { parseAnswer, questionsOf, typedContent } from "../../../src/cli/session/questions.js";

describe("questionsOf", () => {
  it("reads Claude/Codex question lists and {questions} objects", () => {
    const claude = questionsOf([{ id: "Q?", question: "Q?", header: "H", options: [{ label: "a" }] }]);
    expect(claude).toMatchObject([{ key: "Q?", text: "[H] Q?", choices: [{ label: "a", value: "a" }] }]);
    const cursor = questionsOf({
      questions: [{ id: "q1", prompt: "Pick", options: [{ id: "o", label: "One" }] }],
    });
    expect(cursor).toMatchObject([{ key: "q1", text: "Pick", choices: [{ label: "One" }] }]);
  });

  it("reads an elicitation form: enums, titled options, booleans, numbers, required", () => {
    const questions = questionsOf({
      requestedSchema: {
        properties: {
          colour: { type: "string", title: "Colour", enum: ["red", "blue"] },
          size: { type: "string", oneOf: [{ const: "s", title: "Small" }] },
          ok: { type: "boolean" },
          count: { type: "integer" },
        },
        required: ["colour"],
      },
    });
    expect(questions.map((q) => [q.key, q.required, q.freeText])).toEqual([
      ["colour", true, false],
      ["size", false, false],
      ["ok", false, false],
      ["count", false, true],
    ]);
    const [colour, size, ok, count] = questions as [never, never, never, never];
    expect(parseAnswer(colour, "2")).toBe("blue");
    expect(parseAnswer(colour, "purple")).toBeUndefined();
    expect(parseAnswer(colour, "")).toBeUndefined();
    expect(parseAnswer(size, "small")).toBe("s");
    expect(parseAnswer(size, "")).toBeNull();
    expect(parseAnswer(ok, "y")).toBe("true");
    expect(parseAnswer(count, "2.5")).toBeUndefined();
    expect(typedContent(questions, { colour: "blue", ok: "true", count: "3" })).toEqual({
      colour: "blue",
      ok: true,
      count: 3,
    });
  });

  it("has no questions for a plan or a URL elicitation (a yes/no request)", () => {
    expect(questionsOf({ plan: { markdown: "do it" } })).toEqual([]);
    expect(questionsOf({ mode: "url", url: "https://example.com" })).toEqual([]);
  });
});
