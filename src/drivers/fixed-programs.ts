import { accessSync, constants } from "node:fs";

/**
 * The first of `paths` that is an executable file. The guard's helpers (`nice`, `chrt`, `perl`) come from fixed
 * paths, never from the agent's PATH, which the host may not control.
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
