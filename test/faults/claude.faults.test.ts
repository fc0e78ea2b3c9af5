import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createClaudeDriver } from "../../src/providers/claude/driver.js";
import { describeFaults, proxyScript } from "./harness.js";

const require = createRequire(import.meta.url);
/** The Claude Code binary the Agent SDK bundles. */
const CLAUDE = join(
  dirname(require.resolve("@anthropic-ai/claude-agent-sdk")),
  "..",
  `claude-agent-sdk-${process.platform}-${process.arch}`,
  "claude",
);

let scripts = 0;
const nextName = (prefix: string) => {
  scripts += 1;
  return `${prefix}-${scripts}`;
};

describeFaults({
  name: "claude (Agent SDK)",
  make: async ({ cwd, modelBaseUrl, fault, limits }) =>
    createClaudeDriver({
      cwd,
      modelBaseUrl,
      pathToClaudeCodeExecutable: await proxyScript(cwd, nextName("claude"), fault, CLAUDE),
      ...limits,
    }),
  midTurnLine: '"message_start"',
  approvals: true,
  garbage: "dropped-by-sdk",
  partialLine: "dropped-by-sdk",
  handshakeIn: "start",
  limitations: {
    garbage: "the Agent SDK skips non-JSON stdout lines before the driver sees them",
    partialLine: "the Agent SDK skips non-JSON stdout lines before the driver sees them",
    slowConsumer:
      "the driver's queue is bounded, but the Agent SDK keeps reading Claude Code into its own queue (it must, to see permission calls)",
  },
});
