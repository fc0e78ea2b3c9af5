/**
 * Compatibility: the config writers live with the drivers (`src/drivers/model-config.ts`), the agent programs'
 * lookup in `src/drivers/agent-programs.ts`. Re-exported here for the tests and scripts that import them from
 * the mock model.
 */
import { codexCommand } from "../drivers/agent-programs.js";

export {
  type ClaudeEnvOptions,
  type CodexHomeEnv,
  type CodexHomeExtra,
  claudeEnv,
  codexConfigToml,
  MOCK_API_KEY,
  writeCodexHome,
} from "../drivers/model-config.js";

/** The `codex` launcher script of the installed `@openai/codex` package (run it with node, or directly). */
export function codexBinaryPath(): string {
  const [, launcher] = codexCommand();
  if (launcher === undefined) throw new Error("no codex launcher");
  return launcher;
}
