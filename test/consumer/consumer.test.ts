import { execFile } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as a new user gets it: `npm pack` of a fresh build, the tarball installed into a fresh project with
 * no network and no npm cache (installPacked), a strict TypeScript host typechecked against it, drivers run from the
 * installed package against its mock model, and the pure parts bundled for the browser.
 */

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");
const HOST = join(import.meta.dirname, "host");
const repoModules = join(ROOT, "node_modules");

/** The agent packages a host installs next to provider-runtime (linked here from this checkout's install). */
const AGENTS = [
  "@openai/codex",
  "@openai/codex-sdk",
  "@anthropic-ai/claude-agent-sdk",
  "@agentclientprotocol/sdk",
  "@agentclientprotocol/claude-agent-acp",
];

/** gzip size budget of `provider-runtime/contracts` for the browser (measured: 38.6 KB with zod 4.6.7). */
const CONTRACTS_GZIP_BUDGET = 50 * 1024;
/** gzip size budget of `provider-runtime/client` for the browser (measured: 4.9 KB; no zod in it). */
const CLIENT_GZIP_BUDGET = 8 * 1024;

interface PackedFile {
  path: string;
  size: number;
}

let project: string;
let packed: { filename: string; size: number; unpackedSize: number; files: PackedFile[] };

function link(name: string, from = repoModules): void {
  const target = join(project, "node_modules", name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(from, name), target, "dir");
}

async function node(script: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [script, ...args], { cwd: project, timeout: 90_000 });
  return stdout;
}

/**
 * The package staged in a temp dir, built there (`tsc --outDir`, not this checkout's dist/, which the CLI tests run
 * meanwhile), then packed as `npm pack` packs it: the same package.json, so the same `files`.
 */
async function stagePackage(): Promise<string> {
  const stage = join(project, "stage");
  // what package.json's `files` names (dist/ is built below), so the staged package packs as this one would
  const { files } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
  for (const path of ["package.json", "README.md", "LICENSE", ...expandFiles(files)])
    cpSync(join(ROOT, path), join(stage, path), { recursive: true });
  const tsc = join(repoModules, "typescript", "bin", "tsc");
  await run(
    process.execPath,
    [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", join(stage, "dist")],
    {
      cwd: ROOT,
      timeout: 180_000,
    },
  );
  // the inspector page, as `npm run build` builds it into dist/inspector/
  const vite = join(repoModules, "vite", "bin", "vite.js");
  await run(
    process.execPath,
    [
      vite,
      "build",
      "--config",
      join(ROOT, "inspector/vite.config.ts"),
      "--outDir",
      join(stage, "dist/inspector"),
    ],
    { cwd: ROOT, timeout: 180_000 },
  );
  return stage;
}

/** `files` entries as paths: `dir/*.md` read from the checkout, `dist` left to the build. */
function expandFiles(files: string[]): string[] {
  return files
    .filter((entry) => entry !== "dist")
    .flatMap((entry) => {
      const star = /^(.*)\/\*(\.\w+)$/.exec(entry);
      if (star === null) return [entry];
      const [, dir = "", ext = ""] = star;
      return readdirSync(join(ROOT, dir))
        .filter((name) => name.endsWith(ext))
        .map((name) => `${dir}/${name}`);
    });
}

async function pack(stage: string, ...flags: string[]): Promise<typeof packed> {
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", ...flags], {
    cwd: stage,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return (JSON.parse(stdout.slice(stdout.indexOf("["))) as (typeof packed)[])[0] as typeof packed;
}

/**
 * The tarball installed as npm lays it out (its `package/` directory becomes node_modules/provider-runtime), with
 * its declared dependencies linked from this checkout's install. `npm install` of a tarball asks the registry for
 * its dependencies' metadata, which a fresh machine's cache (filled by `npm ci`) lacks: this needs no cache and no
 * network, and a module the package imports without declaring it still fails to resolve.
 */
async function installPacked(tarball: string): Promise<void> {
  const installed = join(project, "node_modules", "provider-runtime");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"], { timeout: 60_000 });
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) link(name);
}

let stage: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "provider-runtime-consumer-"));
  stage = await stagePackage();
  packed = await pack(stage, "--pack-destination", project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "host", private: true, type: "module" }),
  );
  await installPacked(join(project, packed.filename));
  for (const file of readdirSync(HOST)) copyFileSync(join(HOST, file), join(project, file));
}, 300_000);

afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

describe("the published package", () => {
  it("holds what a host uses: no test support, no source maps, the license and the docs", async () => {
    const paths = packed.files.map((file) => file.path);
    expect(
      paths.filter((path) => /test|fixture|scenario-run|recording|\.map$|(^|\/)src\//.test(path)),
    ).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "docs/events.md",
        "docs/client.md",
        "package.json",
        "dist/inspector/index.html",
      ]),
    );
    for (const provider of ["codex", "codex-sdk", "claude", "acp"])
      expect(paths).toContain(`docs/providers/${provider}.md`);
    for (const doc of ["docs/server.md", "docs/inspector.md", "docs/cluster.md", "docs/contract.md"])
      expect(paths).toContain(doc);
    // `npm pack --dry-run` lists the same files.
    const listed = (await pack(stage, "--dry-run")).files.map((file) => file.path);
    expect(listed.sort()).toEqual([...paths].sort());
  });

  it("ships only modules a public entry point or the CLI reaches", async () => {
    const installed = join(project, "node_modules", "provider-runtime");
    // every module entry point the package exports, and the CLI
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
      exports: Record<string, string | { default: string }>;
    };
    const entries = Object.values(manifest.exports)
      .map((target) => (typeof target === "string" ? target : target.default))
      .filter((target) => target.endsWith(".js"))
      .map((target) => join(installed, target))
      .concat(join(installed, "bin", "provider-runtime.js"));
    const result = await build({
      entryPoints: entries,
      bundle: true,
      write: false,
      outdir: join(project, "closure"),
      platform: "node",
      format: "esm",
      packages: "external",
      splitting: true,
      metafile: true,
      absWorkingDir: project,
      logLevel: "silent",
    });
    const reached = new Set(Object.keys(result.metafile.inputs).map((input) => join(project, input)));
    // the inspector's bundle is the browser's, served by `serve`, not imported
    const unreached = packed.files
      .filter((file) => file.path.endsWith(".js") && file.size > "export {};\n".length)
      .filter((file) => !file.path.startsWith("dist/inspector/"))
      .map((file) => file.path)
      .filter((path) => !reached.has(join(installed, path)));
    expect(unreached).toEqual([]);
  });

  it("a missing agent package is an actionable error, from the installed package", async () => {
    const summary = JSON.parse(await node("run-driver.mjs", "claude")) as { error?: string; name?: string };
    expect(summary.name).toBe("AgentNotInstalledError");
    expect(summary.error).toContain("npm i @anthropic-ai/claude-agent-sdk@0.3.332");
  });

  it("typechecks a strict host with moduleResolution nodenext and bundler", async () => {
    link("@types/node");
    link("undici-types");
    const base = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
      target: "ES2022",
      lib: ["ES2023"],
      types: ["node"],
    };
    const configs = {
      nodenext: { module: "NodeNext", moduleResolution: "NodeNext" },
      bundler: { module: "ESNext", moduleResolution: "Bundler" },
    };
    const tsc = join(repoModules, "typescript", "bin", "tsc");
    for (const [name, resolution] of Object.entries(configs)) {
      const config = `tsconfig.${name}.json`;
      writeFileSync(
        join(project, config),
        JSON.stringify({ compilerOptions: { ...base, ...resolution }, files: ["host.ts"] }),
      );
      // No agent package is installed yet: the package's types must not need one.
      const checked = await run(process.execPath, [tsc, "-p", config], { cwd: project }).catch(
        (error: { stdout: string }) => ({ stdout: `${error.stdout}` }),
      );
      expect(checked.stdout, `tsc -p ${config}`).toBe("");
    }
  }, 120_000);

  describe("with the agent packages installed", () => {
    beforeAll(() => {
      for (const name of AGENTS) link(name);
    });

    for (const target of ["codex", "claude", "acp:claude-agent-acp"]) {
      it(`runs the ${target} driver from the installed package against the mock model`, async () => {
        const summary = JSON.parse(await node("run-driver.mjs", target)) as {
          types: string[];
          violations: unknown[];
        };
        expect(summary.types).toEqual(
          expect.arrayContaining(["session.started", "request.opened", "turn.completed", "session.exited"]),
        );
        expect(summary.types).not.toContain("runtime.warning");
        expect(summary.violations).toEqual([]);
      }, 120_000);
    }

    for (const format of ["cjs", "esm"] as const) {
      it(`an esbuild bundle (${format}, platform node) of a host runs the codex and claude drivers`, async () => {
        const outfile = join(project, `host-bundle.${format === "cjs" ? "cjs" : "mjs"}`);
        await build({
          entryPoints: [join(project, "run-driver.mjs")],
          bundle: true,
          outfile,
          platform: "node",
          format,
          // provider-runtime is bundled; the agent SDKs stay installed packages, as a host would keep them.
          external: AGENTS,
          logLevel: "silent",
        });
        for (const provider of ["codex", "claude"]) {
          const summary = JSON.parse(await node(outfile, provider)) as { types?: string[]; error?: string };
          expect(summary.error, `${format} ${provider}`).toBeUndefined();
          expect(summary.types).toContain("turn.completed");
        }
      }, 180_000);
    }
  });

  it("the pure parts and the client bundle for the browser (no Node built-in), each within its size budget", async () => {
    const sizes: Record<string, { raw: number; gzip: number }> = {};
    for (const entry of ["contracts", "projection", "verify", "client"]) {
      const result = await build({
        stdin: { contents: `export * from "provider-runtime/${entry}";`, resolveDir: project, loader: "js" },
        bundle: true,
        write: false,
        platform: "browser",
        format: "esm",
        minify: true,
        logLevel: "silent",
      });
      const code = result.outputFiles[0]?.contents ?? new Uint8Array();
      sizes[entry] = { raw: code.length, gzip: gzipSync(code).length };
    }
    const all = await build({
      entryPoints: [join(project, "browser-entry.mjs")],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      minify: true,
      logLevel: "silent",
    });
    expect(all.errors).toEqual([]);
    expect(sizes.contracts?.gzip).toBeLessThan(CONTRACTS_GZIP_BUDGET);
    expect(sizes.client?.gzip).toBeLessThan(CLIENT_GZIP_BUDGET);
    expect(sizes.client?.gzip).toBeGreaterThan(1024); // the client itself is in the bundle
  });
});
