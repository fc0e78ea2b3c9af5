import type { RequestResponse } from "../../contracts/driver.js";
import { answerHint, parseAnswer, type Question, questionLines, typedContent } from "./questions.js";
import type { LineResult, TerminalLines } from "./terminal-lines.js";

/** A response; `cancel-rest` (EOF or Ctrl-C at the prompt); undefined when the request went away meanwhile. */
export type PromptOutcome = RequestResponse | "cancel-rest" | undefined;

/**
 * The decision on one request: yes / always / no / cancel (`yesNoOnly` for a request that asks the user and has
 * no questions to put, such as a plan to accept).
 */
export async function askDecision(
  lines: TerminalLines,
  yesNoOnly: boolean,
  signal: AbortSignal,
): Promise<PromptOutcome> {
  const prompt = yesNoOnly
    ? "accept? [y]es / [n]o / [c]ancel: "
    : "approve? [y]es / [a]lways this session / [n]o / [c]ancel: ";
  for (;;) {
    const result = await lines.ask(prompt, signal);
    if (result.kind !== "line") return ended(result);
    const answer = result.text.trim().toLowerCase();
    const decision = DECISIONS.find(([word]) => word === answer || word[0] === answer)?.[1];
    if (decision !== undefined && !(yesNoOnly && decision === "acceptForSession")) return { decision };
    lines.say(yesNoOnly ? "please answer y, n or c" : "please answer y, a, n or c");
  }
}

/** The questions one by one, each asked again until the line answers it; then all answers at once. */
export async function askQuestions(
  lines: TerminalLines,
  questions: readonly Question[],
  signal: AbortSignal,
): Promise<PromptOutcome> {
  const answers: Record<string, string | string[]> = {};
  for (const [index, question] of questions.entries()) {
    lines.say(`question ${index + 1} of ${questions.length}: ${questionLines(question).join("\n")}`);
    for (;;) {
      const result = await lines.ask(`answer${answerHint(question)}: `, signal);
      if (result.kind !== "line") return ended(result);
      const answer = parseAnswer(question, result.text);
      if (answer === null) break;
      if (answer !== undefined) {
        answers[question.key] = answer;
        break;
      }
      lines.say("that does not answer the question; try again (Ctrl-D or Ctrl-C cancels)");
    }
  }
  const isForm = questions.some((q) => q.fieldType !== undefined);
  return {
    decision: "accept",
    answers,
    ...(isForm ? { payload: { content: typedContent(questions, answers) } } : {}),
  };
}

const DECISIONS: ReadonlyArray<[word: string, decision: RequestResponse["decision"]]> = [
  ["yes", "accept"],
  ["always", "acceptForSession"],
  ["no", "decline"],
  ["cancel", "cancel"],
];

function ended(result: Exclude<LineResult, { kind: "line" }>): "cancel-rest" | undefined {
  return result.kind === "withdrawn" ? undefined : "cancel-rest";
}
