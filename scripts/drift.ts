/**
 * `npm run drift`: how the newest published provider packages fare against the mapper. Installs the newest
 * version of each (npm registry only: `npm view`, `npm install --prefix <temp>`), runs the conformance scenarios
 * with the agent programs from there (the conformance files, with PROVIDER_RUNTIME_DRIFT_DIR), and prints per
 * package: pinned and newest version, pass/fail per concept, and every native kind and `_meta` key it sent that
 * the mapper does not know. Not part of `npm test`: it needs the network and a few minutes.
 * Run: npx tsx scripts/drift.ts [--keep]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENT_PACKAGES } from "../src/drivers/agent-programs.js";

interface Target {
  pkg: string;
  pinned: string;
  /** The conformance file that runs this package's program, if one can. */
  suite?: string;
  /** What of the package the run uses. */
  uses: string;
}

const TARGETS: Target[] = [
  {
    pkg: AGENT_PACKAGES.codex.name,
    pinned: AGENT_PACKAGES.codex.version,
    suite: "codex-app-server",
    uses: "its codex app-server",
  },
  {
    pkg: AGENT_PACKAGES.codexSdk.name,
    pinned: AGENT_PACKAGES.codexSdk.version,
    suite: "codex-sdk",
    uses: "the codex binary it bundles (the SDK module stays the pinned one)",
  },
  {
    pkg: AGENT_PACKAGES.claudeSdk.name,
    pinned: AGENT_PACKAGES.claudeSdk.version,
    suite: "claude",
    uses: "the Claude Code binary it bundles (the SDK module stays the pinned one)",
  },
  {
    pkg: AGENT_PACKAGES.acpSdk.name,
    pinned: AGENT_PACKAGES.acpSdk.version,
    uses: "not run: the ACP driver imports the pinned SDK; each adapter brings its own copy",
  },
  {
    pkg: AGENT_PACKAGES.claudeAgentAcp.name,
    pinned: AGENT_PACKAGES.claudeAgentAcp.version,
    suite: "acp-claude",
    uses: "its dist/index.js",
  },
  {
    pkg: AGENT_PACKAGES.codexAcp.name,
    pinned: AGENT_PACKAGES.codexAcp.version,
    suite: "acp-codex",
    uses: "its dist/index.js (and the @openai/codex it depends on)",
  },
  {
    pkg: AGENT_PACKAGES.opencode.name,
    pinned: AGENT_PACKAGES.opencode.version,
    suite: "acp-opencode",
    uses: "the opencode binary of its platform package (opencode-<os>-<arch>)",
  },
  {
    pkg: AGENT_PACKAGES.copilot.name,
    pinned: AGENT_PACKAGES.copilot.version,
    suite: "acp-copilot",
    uses: "the copilot binary of its platform package (@github/copilot-<os>-<arch>)",
  },
];

/** `_meta` keys the ACP mapper reads (tool-facts.ts, session-updates.ts); any other is reported. */
const KNOWN_META_KEYS = new Set([
  "claudeCode",
  "terminal_info",
  "terminal_output_delta",
  "terminal_exit",
  "codex",
]);

const root = join(import.meta.dirname, "..");
const keep = process.argv.includes("--keep");
const dir = await mkdtemp(join(tmpdir(), "provider-runtime-drift-"));

try {
  const newest = new Map<string, string>();
  for (const target of TARGETS) {
    newest.set(target.pkg, execFileSync("npm", ["view", target.pkg, "version"], { encoding: "utf8" }).trim());
  }
  const specs = TARGETS.map((target) => `${target.pkg}@${newest.get(target.pkg)}`);
  console.log(`installing ${specs.join(" ")} into ${dir}`);
  execFileSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", ...specs], {
    stdio: ["ignore", "ignore", "inherit"],
  });

  for (const target of TARGETS) {
    const version = newest.get(target.pkg) ?? "?";
    const same = version === target.pinned ? " (= pinned)" : "";
    console.log(`\n${target.pkg}: newest ${version}, pinned ${target.pinned}${same} — ${target.uses}`);
    if (target.suite === undefined) continue;
    const result = runSuite(target.suite);
    for (const [concept, status] of result.concepts)
      console.log(`  ${status === "passed" ? "pass" : "FAIL"}  ${concept}`);
    if (result.error !== undefined) console.log(`  run failed: ${result.error}`);
    console.log(`  unknown kinds: ${list(result.unknownKinds)}`);
    if (target.suite.startsWith("acp-")) console.log(`  unknown _meta keys: ${list(result.unknownMeta)}`);
  }
} finally {
  if (keep) console.log(`\nkept ${dir}`);
  else await rm(dir, { recursive: true, force: true });
}

function list(values: Set<string>): string {
  return values.size === 0 ? "none" : [...values].sort().join(", ");
}

interface SuiteResult {
  concepts: [string, string][];
  unknownKinds: Set<string>;
  unknownMeta: Set<string>;
  error?: string;
}

/** One conformance file through vitest (its JSON report), with the drift dir and an event log of its runs. */
function runSuite(suite: string): SuiteResult {
  const report = join(dir, `${suite}.report.json`);
  const events = join(dir, `${suite}.events.jsonl`);
  const run = spawnSync(
    "npx",
    [
      "vitest",
      "run",
      `test/conformance/${suite}.conformance.test.ts`,
      "--reporter=json",
      `--outputFile=${report}`,
    ],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, PROVIDER_RUNTIME_DRIFT_DIR: dir, PROVIDER_RUNTIME_DRIFT_REPORT: events },
    },
  );
  const result: SuiteResult = { concepts: [], unknownKinds: new Set(), unknownMeta: new Set() };
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: { assertionResults: { title: string; status: string }[]; message?: string }[];
    };
    for (const file of json.testResults) {
      for (const test of file.assertionResults) result.concepts.push([test.title, test.status]);
      if (file.assertionResults.length === 0 && file.message)
        result.error = file.message.split("\n")[0] ?? "";
    }
  } else {
    result.error = (run.stderr || run.stdout).trim().split("\n").slice(-3).join(" | ");
  }
  if (existsSync(events)) {
    for (const line of readFileSync(events, "utf8").split("\n")) {
      if (line.length === 0) continue;
      const event = JSON.parse(line) as {
        type: string;
        payload: Record<string, unknown>;
        raw?: { payload?: unknown };
      };
      const detail = event.payload.detail as Record<string, unknown> | undefined;
      if (event.type === "runtime.warning" && detail?.reason === "unknown-kind") {
        result.unknownKinds.add(String(detail.kind ?? event.payload.message));
      }
      for (const key of metaKeys(event.raw?.payload))
        if (!KNOWN_META_KEYS.has(key)) result.unknownMeta.add(key);
    }
  }
  return result;
}

/** The `_meta` keys of an ACP message: on its params, its update and its result. */
function metaKeys(message: unknown): string[] {
  if (typeof message !== "object" || message === null) return [];
  const msg = message as Record<string, Record<string, unknown> | undefined>;
  const update = msg.params?.update as Record<string, unknown> | undefined;
  const holders = [msg.params, update, msg.result];
  return holders.flatMap((holder) => {
    const meta = holder?._meta;
    return typeof meta === "object" && meta !== null ? Object.keys(meta) : [];
  });
}
