import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { codexSdkCoverage, codexSdkDefinition } from "../../../src/providers/codex-sdk/definition.js";
import { CODEX_SDK_VERSION } from "../../../src/providers/codex-sdk/records.js";

/** The installed SDK's declarations: the source of truth for its surface (not a copy in the repository). */
function installedSdk(): { version: string; declarations: string } {
  // The package exports no `./package.json`: find its folder the way Node does, up the node_modules chain.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const root = join(dir, "node_modules", "@openai", "codex-sdk");
    if (existsSync(join(root, "package.json"))) {
      const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
      return {
        version: manifest.version,
        declarations: readFileSync(join(root, "dist", "index.d.ts"), "utf8"),
      };
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("@openai/codex-sdk is not installed");
    dir = parent;
  }
}

/** The `type` literals of the members of a union such as `type ThreadEvent = A | B | ...;`. */
function unionTypeLiterals(declarations: string, union: string): string[] {
  const match = new RegExp(`type ${union} = ([^;]+);`).exec(declarations);
  if (match?.[1] === undefined) throw new Error(`no union ${union} in the SDK declarations`);
  const members = match[1].split("|").map((member) => member.trim());
  return members.map((member) => {
    const body = new RegExp(`type ${member} = \\{[\\s\\S]*?\\n\\s*type: "([^"]+)";`).exec(declarations);
    if (body?.[1] === undefined) throw new Error(`no type literal for ${member}`);
    return body[1];
  });
}

describe("codex-sdk coverage against the installed @openai/codex-sdk", () => {
  const sdk = installedSdk();
  const coverage = codexSdkCoverage();

  it("is the pinned version", () => {
    expect(sdk.version).toBe(CODEX_SDK_VERSION);
    expect(coverage.version).toBe(sdk.version);
    expect(codexSdkDefinition.coverage()).toEqual(coverage);
  });

  it.each([
    ["ThreadEvent", "event", 8],
    ["ThreadItem", "item", 8],
  ] as const)("handles every %s type", (union, group, count) => {
    const declared = unionTypeLiterals(sdk.declarations, union);
    expect(declared).toHaveLength(count);
    const handled = coverage.kinds
      .filter((row) => row.group === group && row.yields.length > 0)
      .map((row) => row.kind);
    expect([...handled].sort()).toEqual([...declared].sort());
    expect(coverage.unhandled).toEqual([]);
  });
});
