import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  AGENT_PACKAGES,
  AgentNotInstalledError,
  findPackageDir,
  requirePackageDir,
} from "./agent-programs.js";

/**
 * The native binaries of the ACP agents shipped as per-platform npm packages (OpenCode, GitHub Copilot CLI). Their
 * launchers are not used: `opencode-ai`'s `bin/opencode.exe` is a placeholder until its postinstall copies the
 * binary over it (npm runs no install scripts it was not allowed to), and `@github/copilot`'s `npm-loader.js`
 * runs the binary with `spawnSync`, so a signal to the loader would orphan it. The platform package, which npm
 * installs as an optional dependency of the launcher package, has the binary itself.
 */

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** x64 Linux builds need AVX2 unless they are the `-baseline` ones. */
function hasAvx2(): boolean {
  if (process.arch !== "x64" || process.platform !== "linux") return process.arch !== "x64";
  try {
    return /(^|\s)avx2(\s|$)/i.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

function isMuslLinux(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime === undefined;
}

/** `opencode-<os>-<arch>[-baseline][-musl]/bin/opencode`, the first one installed that fits this machine. */
export function opencodeBinary(base?: string): string {
  const pkg = AGENT_PACKAGES.opencode;
  const launcher = join(requirePackageDir(pkg, base), "package.json");
  const os = process.platform === "win32" ? "windows" : process.platform;
  const stem = `opencode-${os}-${process.arch}`;
  const musl = isMuslLinux() ? ["-musl"] : [""];
  const variants = hasAvx2() ? ["", "-baseline"] : ["-baseline", ""];
  const file = process.platform === "win32" ? "opencode.exe" : "opencode";
  for (const libc of musl)
    for (const variant of variants) {
      const dir = findPackageDir(`${stem}${variant}${libc}`, launcher);
      if (dir !== undefined && isFile(join(dir, "bin", file))) return join(dir, "bin", file);
    }
  throw new AgentNotInstalledError(pkg.name, pkg.version, `no ${stem} binary package`);
}

/** `@github/copilot-<os>-<arch>/copilot` (`linuxmusl` on a musl Linux). */
export function copilotBinary(base?: string): string {
  const pkg = AGENT_PACKAGES.copilot;
  const launcher = join(requirePackageDir(pkg, base), "package.json");
  const platforms =
    process.platform === "linux" && isMuslLinux() ? ["linuxmusl", "linux"] : [process.platform];
  const file = process.platform === "win32" ? "copilot.exe" : "copilot";
  for (const platform of platforms) {
    const dir = findPackageDir(`@github/copilot-${platform}-${process.arch}`, launcher);
    if (dir !== undefined && isFile(join(dir, file))) return join(dir, file);
  }
  throw new AgentNotInstalledError(
    pkg.name,
    pkg.version,
    `no @github/copilot-${platforms[0]}-${process.arch} binary`,
  );
}
