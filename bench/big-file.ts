import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SourceName } from "../src/kit/mapper.js";
import { fixtureRecords, repeatedLine } from "./fixture-corpus.js";

/** Writes a transcript of about `bytes` by repeating the fixtures with unique ids; returns its path. */
export async function writeBigTranscript(source: SourceName, bytes: number): Promise<string> {
  const file = join(tmpdir(), `provider-runtime-bench-${source}-${bytes}.jsonl`);
  const base = fixtureRecords(source);
  const out = createWriteStream(file);
  let written = 0;
  for (let n = 0; written < bytes; n++) {
    const chunk = `${base.map((record) => repeatedLine(record, n)).join("\n")}\n`;
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return file;
}

export interface ProcessRun {
  bytes: number;
  seconds: number;
  peakRssMb: number;
  exitCode: number | null;
}

const ROOT = new URL("../", import.meta.url).pathname;
const BUILD_DIR = join(ROOT, "node_modules/.cache/provider-runtime-bench");

/**
 * Compiles the current sources (as `npm run build` does, into a cache folder so dist/ is left alone) and writes an
 * entry that runs the CLI like bin/provider-runtime.js. Returns the command to run it: plain `node ENTRY`, or,
 * if the build fails, the sources through tsx (whose loader then counts in the RSS too).
 */
export async function buildCli(): Promise<string[]> {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const args = [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", BUILD_DIR];
  const code = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, [...args, "--declaration", "false", "--sourceMap", "false"], {
      stdio: ["ignore", "ignore", "inherit"],
    }).on("exit", resolve),
  );
  if (code !== 0) return ["--import", "tsx", new URL("./normalize-entry.ts", import.meta.url).pathname];
  const entry = join(BUILD_DIR, "bench-entry.js");
  await writeFile(entry, 'import { runAsProcess } from "./cli/main.js";\nrunAsProcess();\n');
  return [entry];
}

/**
 * Runs the real `normalize` CLI (`command` from buildCli) over a file, output discarded, sampling the process's
 * peak RSS (VmHWM) until it exits.
 */
export async function normalizeProcess(
  command: string[],
  source: SourceName,
  file: string,
): Promise<ProcessRun> {
  const { size } = await stat(file);
  const start = Date.now();
  const child = spawn(process.execPath, [...command, "normalize", "--from", source, file], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  let peakKb = 0;
  const sample = async () => {
    try {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      const hwm = /VmHWM:\s+(\d+)/.exec(status)?.[1];
      if (hwm) peakKb = Math.max(peakKb, Number(hwm));
    } catch {
      // the process has exited
    }
  };
  const timer = setInterval(() => void sample(), 25);
  const exitCode = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  clearInterval(timer);
  return { bytes: size, seconds: (Date.now() - start) / 1000, peakRssMb: peakKb / 1024, exitCode };
}

export async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true });
}
