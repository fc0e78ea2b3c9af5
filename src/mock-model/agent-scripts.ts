import { ESCALATED_SHELL } from "./scenarios.js";
import type { MockModelOptions } from "./server.js";

/**
 * How the mock model plays an ACP agent of ours: codex-acp asks the host only for a command that leaves its
 * sandbox (its modes are on-request), so its shell call asks to, the way a real model does; the others need nothing.
 */
export function mockOptionsForAgent(agent: string | undefined): MockModelOptions {
  return agent === "codex-acp" ? { script: ESCALATED_SHELL } : {};
}
