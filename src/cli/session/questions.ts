import { arr, asObject, isObject, type JsonObject, str } from "../../kit/guards.js";

/** One choice of a question: what the user sees, and what goes back to the agent. */
export interface Choice {
  label: string;
  value: string;
}

/** One question to put to the user, read from a `user-input.requested` payload of any provider. */
export interface Question {
  /** The key its answer goes back under (question id, question text, or form field name). */
  key: string;
  text: string;
  choices: Choice[];
  multiple: boolean;
  /** Whether an answer outside the choices is taken (free text; an enum field takes none). */
  freeText: boolean;
  /** Form fields (MCP elicitation): the JSON type the answer is converted to. */
  fieldType?: string;
  /** Whether an empty answer is refused. */
  required: boolean;
}

/**
 * The questions of a `user-input.requested` payload: a list of questions (Claude AskUserQuestion, Codex
 * request_user_input, Cursor ask_question), a `{questions}` object, or an MCP elicitation form
 * (`requestedSchema.properties`). Anything else (a Cursor plan, a URL elicitation) has no questions: the request
 * is then a yes/no matter.
 */
export function questionsOf(payload: unknown): Question[] {
  const list = arr(payload) ?? arr(asObject(payload)?.questions);
  if (list !== undefined) return list.map(listQuestion);
  const schema = asObject(asObject(payload)?.requestedSchema);
  const properties = asObject(schema?.properties);
  if (properties === undefined) return [];
  const required = new Set((arr(schema?.required) ?? []).filter((k): k is string => typeof k === "string"));
  return Object.entries(properties).map(([name, field]) =>
    formQuestion(name, asObject(field) ?? {}, required),
  );
}

function listQuestion(raw: unknown, index: number): Question {
  const q = asObject(raw) ?? {};
  const asked = str(q.question) ?? str(q.prompt) ?? str(q.text) ?? str(q.title);
  const header = str(q.header);
  const key = str(q.id) ?? asked ?? header ?? String(index);
  const text = asked === undefined ? (header ?? key) : header === undefined ? asked : `[${header}] ${asked}`;
  const choices = (arr(q.options) ?? []).flatMap((option): Choice[] => {
    const label = str(option) ?? str(asObject(option)?.label) ?? str(asObject(option)?.title);
    if (label === undefined) return [];
    return [{ label, value: str(asObject(option)?.value) ?? label }];
  });
  return {
    key,
    text,
    choices,
    multiple: q.multiSelect === true || q.allowMultiple === true || q.multiple === true,
    freeText: true,
    required: true,
  };
}

function formQuestion(name: string, field: JsonObject, required: ReadonlySet<string>): Question {
  const title = str(field.title);
  const description = str(field.description);
  const text = [title ?? name, description].filter(Boolean).join(" — ");
  const fieldType = str(field.type) ?? "string";
  const items = asObject(field.items);
  const choices = choicesOf(field) ?? (items === undefined ? undefined : choicesOf(items)) ?? [];
  const boolean = fieldType === "boolean";
  return {
    key: name,
    text,
    choices: boolean
      ? [
          { label: "yes", value: "true" },
          { label: "no", value: "false" },
        ]
      : choices,
    multiple: fieldType === "array",
    freeText: !boolean && choices.length === 0,
    fieldType,
    required: required.has(name),
  };
}

/** `enum` (values as labels) or titled `oneOf` / `anyOf` options (`{const, title}`). */
function choicesOf(schema: JsonObject): Choice[] | undefined {
  const plain = arr(schema.enum);
  if (plain !== undefined) return plain.map(String).map((value) => ({ label: value, value }));
  const titled = arr(schema.oneOf) ?? arr(schema.anyOf);
  if (titled === undefined) return undefined;
  return titled.filter(isObject).map((option) => {
    const value = String(option.const ?? option.title ?? "");
    return { label: str(option.title) ?? value, value };
  });
}

/** What the user typed, as an answer: undefined when it does not answer the question (ask again). */
export function parseAnswer(question: Question, line: string): string | string[] | null | undefined {
  const text = line.trim();
  if (text.length === 0) return question.required ? undefined : null;
  const parts = question.multiple ? text.split(",").map((part) => part.trim()) : [text];
  const values: string[] = [];
  for (const part of parts.filter((p) => p.length > 0)) {
    const value = choiceValue(question, part);
    if (value === undefined) return undefined;
    values.push(value);
  }
  if (values.length === 0) return undefined;
  return question.multiple ? values : values[0];
}

function choiceValue(question: Question, part: string): string | undefined {
  const { choices } = question;
  const index = /^\d+$/.test(part) ? Number(part) - 1 : -1;
  const byNumber = choices[index];
  if (byNumber !== undefined) return byNumber.value;
  const lower = part.toLowerCase();
  const byLabel = choices.find((c) => c.label.toLowerCase() === lower || c.value.toLowerCase() === lower);
  if (byLabel !== undefined) return byLabel.value;
  if (question.fieldType === "boolean" && (lower === "y" || lower === "n")) return String(lower === "y");
  if (question.fieldType === "number" || question.fieldType === "integer") {
    const n = Number(part);
    const ok = Number.isFinite(n) && (question.fieldType === "number" || Number.isInteger(n));
    return ok ? part : undefined;
  }
  return question.freeText || choices.length === 0 ? part : undefined;
}

/** Form answers with their JSON types (an elicitation's `content`): numbers and booleans are not strings. */
export function typedContent(
  questions: readonly Question[],
  answers: Record<string, string | string[]>,
): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const question of questions) {
    const answer = answers[question.key];
    if (answer === undefined) continue;
    if (question.fieldType === "number" || question.fieldType === "integer")
      content[question.key] = Number(answer);
    else if (question.fieldType === "boolean") content[question.key] = answer === "true";
    else content[question.key] = answer;
  }
  return content;
}

/** The question as shown at the prompt: its text and numbered choices. */
export function questionLines(question: Question): string[] {
  const lines = [question.text];
  question.choices.forEach((choice, index) => {
    lines.push(`  ${index + 1}) ${choice.label}`);
  });
  return lines;
}

export function answerHint(question: Question): string {
  const pick =
    question.choices.length > 0 ? (question.multiple ? "numbers, comma-separated" : "a number") : "";
  const free = question.freeText && question.choices.length > 0 ? " or your own text" : "";
  const optional = question.required ? "" : "; empty to skip";
  return pick.length === 0 && optional.length === 0 ? "" : ` (${pick}${free}${optional})`.replace("(; ", "(");
}
