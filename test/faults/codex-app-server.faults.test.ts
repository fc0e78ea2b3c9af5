import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createCodexDriver } from "../../src/providers/codex/driver.js";
import { describeFaults, proxyCommand } from "./harness.js";

const require = createRequire(import.meta.url);
const triple = process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl";
/** The native `codex` of the pinned @openai/codex (run directly, so killing it leaves no launcher behind). */
const CODEX = join(
  dirname(require.resolve(`@openai/codex-${process.platform}-${process.arch}/package.json`)),
  "vendor",
  triple,
  "bin",
  "codex",
);

describeFaults({
  name: "codex app-server",
  make: async ({ cwd, modelBaseUrl, fault, limits }) =>
    createCodexDriver({
      cwd,
      modelBaseUrl,
      agentCommand: proxyCommand(fault, [CODEX, "app-server"]),
      ...limits,
    }),
  midTurnLine: '"turn/started"',
  approvals: true,
  garbage: "crash",
  partialLine: "crash",
  handshakeIn: "start",
});
