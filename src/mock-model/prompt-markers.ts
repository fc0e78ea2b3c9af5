import { isScenarioName, type ScenarioName, SUBAGENT_TASK_SENTINEL } from "./scenarios.js";

/** One user prompt of a request, as plain text, in conversation order. */
export type PromptText = string;

const MARKER = /mock:([a-z0-9-]+)/g;

/** The last known `mock:<scenario>` marker of the latest prompt that has one; `text` when none has. */
export function scenarioFromPrompts(prompts: readonly PromptText[]): ScenarioName {
  for (let index = prompts.length - 1; index >= 0; index--) {
    const found = lastMarker(prompts[index] ?? "");
    if (found !== undefined) return found;
  }
  return "text";
}

function lastMarker(text: string): ScenarioName | undefined {
  let found: ScenarioName | undefined;
  for (const match of text.matchAll(MARKER)) {
    const name = match[1] ?? "";
    if (isScenarioName(name)) found = name;
  }
  return found;
}

export function isSubagentTaskPrompt(latestPrompt: PromptText | undefined): boolean {
  return latestPrompt?.includes(SUBAGENT_TASK_SENTINEL) ?? false;
}

/** Both agents announce their working directory in their context text (Codex `<cwd>`, Claude Code a bullet). */
export function announcedCwd(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const match = /<cwd>([^<]+)<\/cwd>/.exec(text) ?? /Primary working directory: ([^\n]+)/.exec(text);
    if (match?.[1] !== undefined) return match[1].trim();
  }
  return undefined;
}
