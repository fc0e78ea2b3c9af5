import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");

describe("the API reference (TypeDoc over the package's entry points)", () => {
  it("builds with no warning: every type the public API names is exported and documented where it lives", async () => {
    // typedoc.json sets treatWarningsAsErrors: a warning is a non-zero exit. `--emit none`: check, write nothing.
    const typedoc = join(ROOT, "node_modules", "typedoc", "bin", "typedoc");
    const result = await run(process.execPath, [typedoc, "--emit", "none"], {
      cwd: ROOT,
      timeout: 120_000,
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.stdout).not.toContain("[warning]");
    expect(result.code).toBe(0);
  }, 120_000);
});
