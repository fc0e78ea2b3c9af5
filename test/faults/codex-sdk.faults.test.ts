import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCodexSdkDriver } from "../../src/providers/codex-sdk/driver.js";
import { describeFaults, proxyScript } from "./harness.js";

const triple = process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl";
/** The codex binary that @openai/codex-sdk bundles (its own pinned @openai/codex). */
function bundledCodex(): string {
  const sdkDir = join(dirname(fileURLToPath(import.meta.url)), "../../node_modules/@openai/codex-sdk");
  const platform = `codex-${process.platform}-${process.arch}`;
  for (const base of [join(sdkDir, "node_modules/@openai", platform), join(sdkDir, "..", platform)]) {
    const bin = join(base, "vendor", triple, "bin", "codex");
    if (existsSync(bin)) return bin;
  }
  throw new Error("the codex binary of @openai/codex-sdk is not installed");
}
const CODEX = bundledCodex();

let scripts = 0;
const nextName = (prefix: string) => {
  scripts += 1;
  return `${prefix}-${scripts}`;
};

describeFaults({
  name: "codex-sdk (codex exec)",
  make: async ({ cwd, modelBaseUrl, fault, limits }) =>
    createCodexSdkDriver({
      cwd,
      modelBaseUrl,
      codexPath: await proxyScript(cwd, nextName("codex"), fault, CODEX),
      ...limits,
    }),
  midTurnLine: '"turn.started"',
  approvals: false,
  garbage: "crash",
  partialLine: "crash",
  handshakeIn: "sendTurn",
  highWaterMark: 2,
  // exec is one process per turn: with its stdout swallowed it still finishes (covered by fault 3); here the
  // executable never starts codex at all.
  silentMode: "hang",
  limitations: {
    slowConsumer: "exec JSONL has no text deltas, so a turn is a handful of events (high-water mark 2)",
  },
});
