/** A question of a `tool_user_input` request, read from whichever provider shape it came in. */
export interface Question {
  /** The key its answer goes back under. */
  id: string;
  header?: string;
  prompt: string;
  options: Array<{ label: string; description?: string }>;
  multiSelect: boolean;
}

const MAX_QUESTIONS = 50;
const MAX_OPTIONS = 100;

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The questions of a request: Claude's and Codex's lists (`{id?, header, question, options:[{label}]}`), an
 * ACP-style `{title, questions:[{id, prompt, options:[{id, label}]}]}`, or a single question. Unknown shapes
 * give no question (the card then offers Cancel only).
 */
export function readQuestions(questions: unknown): Question[] {
  const list = Array.isArray(questions)
    ? questions
    : isRecord(questions) && Array.isArray(questions.questions)
      ? questions.questions
      : isRecord(questions)
        ? [questions]
        : [];
  const out: Question[] = [];
  for (const [index, raw] of list.slice(0, MAX_QUESTIONS).entries()) {
    if (!isRecord(raw)) continue;
    const prompt = text(raw.question) ?? text(raw.prompt) ?? text(raw.text) ?? text(raw.header);
    if (prompt === undefined) continue;
    const options = Array.isArray(raw.options) ? raw.options.slice(0, MAX_OPTIONS) : [];
    const header = text(raw.header);
    out.push({
      id: text(raw.id) ?? text(raw.question) ?? String(index),
      ...(header !== undefined && header !== prompt ? { header } : {}),
      prompt,
      options: options.flatMap((option) => {
        if (typeof option === "string") return [{ label: option }];
        if (!isRecord(option)) return [];
        const label = text(option.label) ?? text(option.name) ?? text(option.id);
        if (label === undefined) return [];
        const description = text(option.description);
        return [description === undefined ? { label } : { label, description }];
      }),
      multiSelect: raw.multiSelect === true || raw.multi_select === true,
    });
  }
  return out;
}
