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

/**
 * The agents announce their working directory in their context text: Codex `<cwd>`, Claude Code and GitHub Copilot
 * CLI a bullet, OpenCode a line of its `<env>` block.
 */
const CWD_ANNOUNCEMENTS = [
  /<cwd>([^<]+)<\/cwd>/,
  /Primary working directory: ([^\n]+)/,
  /Current working directory: ([^\n]+)/,
  /^\s*Working directory: ([^\n]+)/m,
];

export function announcedCwd(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    for (const pattern of CWD_ANNOUNCEMENTS) {
      const match = pattern.exec(text);
      if (match?.[1] !== undefined) return match[1].trim();
    }
  }
  return undefined;
}
