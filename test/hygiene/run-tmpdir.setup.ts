// vitest globalSetup (vitest.config.ts): the whole run gets its own TMPDIR, a fresh directory in the machine's
// temp dir. Every worker inherits it, and so does every process the tests start (agentEnv keeps TMPDIR), so all
// the project's temp dirs (the tests' own, the drivers', the CLI's, the agents') land in it, apart from whatever
// else on the machine writes to /tmp meanwhile. After the run, anything still in it fails the run: no temp dir
// outlives its session, nor its test.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Names of what was left in `root`, by prefix (the part before mkdtemp's random suffix), with counts. */
function describeLeftovers(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const prefix = name.replace(/[A-Za-z0-9]{6}$/, "*");
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].map(([prefix, count]) => `${count} × ${prefix}`).join(", ");
}

/** Up to 20 paths inside each leftover: which program wrote there says who outlived its session. */
function listInside(root: string, names: readonly string[]): string {
  return names
    .map((name) => {
      let inside: string[];
      try {
        inside = readdirSync(join(root, name), { recursive: true, encoding: "utf8" });
      } catch {
        inside = [];
      }
      const shown = inside.slice(0, 20).map((path) => `  ${name}/${path}`);
      if (inside.length > shown.length) shown.push(`  … ${inside.length - shown.length} more`);
      return [name, ...shown].join("\n");
    })
    .join("\n");
}

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "pr-tests-"));
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    const inside = listInside(root, left);
    rmSync(root, { recursive: true, force: true });
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    if (left.length === 0) return;
    // vitest reports a teardown's error but keeps the exit code: set it, so the run fails
    process.exitCode = 1;
    throw new Error(
      `the tests left ${left.length} entries in the run's TMPDIR (${root}, now removed): ${describeLeftovers(left)}\n${inside}`,
    );
  };
}
