import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * Where the agent programs are: one place for every driver. An explicit path from the host wins
 * (`DriverOptions.executablePath`); else the installed npm package, looked up from a base the host gives, then
 * from this module's own location, then from the working directory (the last two cover an ESM install and a
 * CommonJS bundle, where `import.meta.url` does not exist).
 */

/** The agent packages, at the versions this project is tested with (its devDependencies). */
export const AGENT_PACKAGES = {
  codex: { name: "@openai/codex", version: "0.171.0" },
  codexSdk: { name: "@openai/codex-sdk", version: "0.163.0" },
  claudeSdk: { name: "@anthropic-ai/claude-agent-sdk", version: "0.3.332" },
  acpSdk: { name: "@agentclientprotocol/sdk", version: "2.4.0" },
  claudeAgentAcp: { name: "@agentclientprotocol/claude-agent-acp", version: "0.101.0" },
  codexAcp: { name: "@agentclientprotocol/codex-acp", version: "2.6.0" },
  opencode: { name: "opencode-ai", version: "1.18.33" },
  copilot: { name: "@github/copilot", version: "1.0.102" },
} as const;

export interface AgentPackage {
  name: string;
  version: string;
}

export class AgentNotInstalledError extends Error {
  constructor(
    readonly packageName: string,
    readonly testedVersion: string,
    detail?: string,
  ) {
    super(
      `${packageName} is not installed${detail === undefined ? "" : ` (${detail})`}; provider-runtime is ` +
        `tested with ${packageName} ${testedVersion}: npm i ${packageName}@${testedVersion}`,
    );
    this.name = "AgentNotInstalledError";
  }
}

function thisModuleUrl(): string | undefined {
  try {
    return typeof import.meta.url === "string" ? import.meta.url : undefined;
  } catch {
    return undefined;
  }
}

/** The directory of an installed package (its package.json's), or undefined. */
export function findPackageDir(name: string, base?: string): string | undefined {
  // In a CommonJS bundle `import.meta.url` is gone but `__filename` names the bundle.
  const bundle = typeof __filename === "string" ? __filename : undefined;
  const bases = [base, thisModuleUrl(), bundle, join(process.cwd(), "noop.js")];
  for (const from of bases) {
    if (from === undefined) continue;
    // The node_modules dirs Node would search, checked by hand: `require.resolve` fails for a package whose
    // `exports` has neither `./package.json` nor a `require` condition (e.g. @openai/codex-sdk).
    let paths: string[] | null = null;
    try {
      paths = createRequire(from).resolve.paths(name);
    } catch {
      // not a usable base
    }
    for (const dir of paths ?? []) if (isFile(join(dir, name, "package.json"))) return join(dir, name);
  }
  return undefined;
}

export function requirePackageDir(pkg: AgentPackage, base?: string): string {
  const dir = findPackageDir(pkg.name, base);
  if (dir === undefined) throw new AgentNotInstalledError(pkg.name, pkg.version);
  return dir;
}

/** The version in an installed package's package.json, or undefined when it is not installed or unreadable. */
export function installedVersion(name: string, base?: string): string | undefined {
  const dir = findPackageDir(name, base);
  if (dir === undefined) return undefined;
  try {
    const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown })
      .version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** An agent package installed at a version other than the one this project is tested with. */
export interface UntestedAgentVersion {
  name: string;
  installed: string;
  tested: string;
}

/**
 * The agent packages given that are installed at another version than the tested one (the package's
 * `peerDependencies` pin exactly that version). A package that is not installed is not listed here: loading it
 * fails with `AgentNotInstalledError`.
 */
export function untestedAgentVersions(
  packages: readonly AgentPackage[],
  base?: string,
): UntestedAgentVersion[] {
  const untested: UntestedAgentVersion[] = [];
  for (const pkg of packages) {
    const installed = installedVersion(pkg.name, base);
    if (installed !== undefined && installed !== pkg.version)
      untested.push({ name: pkg.name, installed, tested: pkg.version });
  }
  return untested;
}

/** `import()` of an agent SDK, failing with the package, the tested version and the install command. */
export async function importAgentSdk<T>(pkg: AgentPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND")
      throw new AgentNotInstalledError(pkg.name, pkg.version, (error as Error).message.split("\n")[0]);
    throw error;
  }
}

/** `codex app-server`'s command: the launcher script of `@openai/codex`, under this Node. */
export function codexCommand(executablePath?: string, base?: string): string[] {
  if (executablePath !== undefined) return [executablePath];
  const dir = requirePackageDir(AGENT_PACKAGES.codex, base);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : (manifest.bin?.codex ?? "bin/codex.js");
  return [process.execPath, join(dir, bin)];
}

const CODEX_TARGETS: Record<string, string> = {
  "linux-x64": "x86_64-unknown-linux-musl",
  "linux-arm64": "aarch64-unknown-linux-musl",
  "darwin-x64": "x86_64-apple-darwin",
  "darwin-arm64": "aarch64-apple-darwin",
};

/** The native codex binary `@openai/codex-sdk` would run (its own nested `@openai/codex`), and its PATH dirs. */
export function codexSdkBinary(base?: string): { path: string; pathDirs: string[] } {
  const sdk = AGENT_PACKAGES.codexSdk;
  const platform = `${process.platform}-${process.arch}`;
  const target = CODEX_TARGETS[platform];
  const codexDir = findPackageDir("@openai/codex", join(requirePackageDir(sdk, base), "package.json"));
  const nativeDir =
    codexDir === undefined
      ? undefined
      : findPackageDir(`@openai/codex-${platform}`, join(codexDir, "package.json"));
  if (target === undefined || nativeDir === undefined)
    throw new AgentNotInstalledError(sdk.name, sdk.version, `no codex binary for ${platform}`);
  const root = join(nativeDir, "vendor", target);
  for (const [bin, pathDir] of [
    [join(root, "bin", "codex"), join(root, "codex-path")],
    [join(root, "codex", "codex"), join(root, "path")],
  ] as const) {
    if (isFile(bin)) return { path: bin, pathDirs: isDir(pathDir) ? [pathDir] : [] };
  }
  throw new AgentNotInstalledError(sdk.name, sdk.version, `no codex binary under ${root}`);
}

/**
 * The command line of a known ACP agent on npm. Both maintained adapters are Node scripts (`dist/index.js`), run
 * under this Node; codex-acp starts the `codex app-server` of the `@openai/codex` it depends on by itself.
 */
export function acpAgentProgram(agent: "claude-agent-acp" | "codex-acp", base?: string): string[] {
  const pkg = agent === "claude-agent-acp" ? AGENT_PACKAGES.claudeAgentAcp : AGENT_PACKAGES.codexAcp;
  return [process.execPath, join(requirePackageDir(pkg, base), "dist", "index.js")];
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
