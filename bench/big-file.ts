import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SourceName } from "../src/kit/mapper.js";
import { repeatedCorpus, uniquify } from "./fixture-corpus.js";

/** Writes a transcript of about `bytes` by repeating the fixtures with unique ids; returns its path. */
export async function writeBigTranscript(source: SourceName, bytes: number): Promise<string> {
  const file = join(tmpdir(), `provider-runtime-bench-${source}-${bytes}.jsonl`);
  const base = repeatedCorpus(source, 1).map((line) => JSON.parse(line) as unknown);
  const out = createWriteStream(file);
  let written = 0;
  for (let n = 0; written < bytes; n++) {
    const chunk = `${base.map((record) => JSON.stringify(uniquify(record, n))).join("\n")}\n`;
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

/** Runs the real `normalize` CLI over a file, sampling the process's peak RSS (VmHWM) until it exits. */
export async function normalizeProcess(source: SourceName, file: string): Promise<ProcessRun> {
  const { size } = await stat(file);
  const bin = new URL("../bin/provider-runtime.js", import.meta.url).pathname;
  const start = Date.now();
  const child = spawn(process.execPath, [bin, "normalize", "--from", source, file], {
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
