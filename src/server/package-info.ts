import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

interface PackageInfo {
  root: string;
  version: string;
}

let cached: PackageInfo | undefined;

/** This package's root dir and version, found from this file whether it runs from `dist/server/` or `src/server/`. */
export function packageInfo(): PackageInfo {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown; version?: unknown };
      if (parsed.name === "provider-runtime") {
        cached = { root: dir, version: typeof parsed.version === "string" ? parsed.version : "0.0.0" };
        return cached;
      }
    }
    dir = dirname(dir);
  }
  cached = { root: join(dirname(fileURLToPath(import.meta.url)), "..", ".."), version: "0.0.0" };
  return cached;
}
