import { accessSync, constants } from "node:fs";

/**
 * The first of `paths` that is an executable file. The guard's helpers (`nice`, `chrt`, `perl`) are looked up at
 * fixed paths this way, never on the agent's PATH, which the host may not control.
 */
export function firstExecutable(paths: readonly string[]): string | undefined {
  return paths.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
