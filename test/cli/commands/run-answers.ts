import { asObject, str } from "../../../src/kit/guards.js";

/**
 * Answers `user-input.requested` questions without a human: each question gets its first option's label. For
 * scripted hosts (the conformance harness); the CLI never does this: it asks, or declines without a terminal.
 * Questions are read leniently (an array of `{id?, question?, header?, options?: [{label}]}`).
 */
export function answerUserInput(questions: unknown): Record<string, string> | undefined {
  const list = Array.isArray(questions) ? questions : asObject(questions)?.questions;
  if (!Array.isArray(list)) return undefined;
  const answers: Record<string, string> = {};
  list.forEach((raw, index) => {
    const question = asObject(raw) ?? {};
    const key = str(question.id) ?? str(question.question) ?? str(question.header) ?? String(index);
    const options = Array.isArray(question.options) ? question.options : [];
    const first = asObject(options[0]);
    answers[key] = str(first?.label) ?? str(first?.value) ?? str(options[0]) ?? "yes";
  });
  return answers;
}
