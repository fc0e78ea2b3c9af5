import type { DriverOptions, RuntimeDriver } from "../../src/drivers/types.js";
import { createCodexSdkDriver } from "../../src/providers/codex-sdk/driver.js";
import type { Concept, Support } from "./concepts.js";

export interface DriverCase {
  /** Column name in the README table. */
  name: string;
  create(options: DriverOptions): RuntimeDriver | Promise<RuntimeDriver>;
  support: Record<Concept, Support>;
}

const yes: Support = { supported: true };
const no = (why: string): Support => ({ supported: false, why });

export const DRIVER_CASES: DriverCase[] = [
  {
    name: "Codex SDK (exec)",
    create: (options) =>
      createCodexSdkDriver({
        ...options,
        config: { model_providers: { mock: { stream_max_retries: 0, request_max_retries: 0 } } },
      }),
    support: {
      text: yes,
      reasoning: yes,
      "shell with approval": { supported: true, note: "no approval channel" },
      "file edit": yes,
      plan: yes,
      question: no("exec has no channel for questions to the user"),
      subagent: no("exec 0.163 offers no subagent tool"),
      "model error": yes,
      "multi-turn": yes,
      interrupt: yes,
    },
  },
];
