import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * §12: the package ships every document its README links. `npm pack --dry-run` lists what package.json's `files`
 * puts in the tarball (dist/ as built); every relative link of the README must be one of those files.
 */

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");

describe("the README's links", () => {
  it("each resolves to a file inside the packed tarball", async () => {
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{
      files: Array<{ path: string }>;
    }>;
    const paths = new Set((packed?.files ?? []).map((file) => file.path));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1] ?? "")
      .filter((link) => !/^[a-z]+:/i.test(link));
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !paths.has(link.replace(/^\.\//, "")))).toEqual([]);
    expect(readme).toMatch(/ESM only/);
    expect(readme).toContain('{ "type": "module" }');
  }, 90_000);
});
