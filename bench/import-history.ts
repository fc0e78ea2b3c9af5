// `import` over a generated history of about BENCH_IMPORT_BYTES (default 1 GB) of Codex rollout files, as a
// whole process: time and peak RSS of the first run (everything new) and of the second (everything unchanged).
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureRecords, repeatedLine } from "./fixture-corpus.js";

export interface ImportRun {
  seconds: number;
  peakRssMb: number;
  exitCode: number | null;
  summary: string;
}

const FILE_BYTES = 8 * 1024 ** 2;

/** Rollout files of about FILE_BYTES each, the recorded rollouts repeated with unique ids, in dated folders. */
async function writeHistory(root: string, bytes: number): Promise<{ files: number; bytes: number }> {
  const base = fixtureRecords("codex-rollout").filter((record) => typeof record !== "string");
  let written = 0;
  let files = 0;
  for (let n = 0; written < bytes; files++) {
    const dir = join(
      root,
      "2026",
      String(1 + (files % 12)).padStart(2, "0"),
      String(1 + (files % 28)).padStart(2, "0"),
    );
    await mkdir(dir, { recursive: true });
    const out = createWriteStream(join(dir, `rollout-bench-${files}.jsonl`));
    for (let size = 0; size < FILE_BYTES && written < bytes; n++) {
      const chunk = `${base.map((record) => repeatedLine(record, n)).join("\n")}\n`;
      const length = Buffer.byteLength(chunk);
      size += length;
      written += length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return { files, bytes: written };
}

async function importProcess(command: string[], data: string, history: string): Promise<ImportRun> {
  const start = Date.now();
  const child = spawn(
    process.execPath,
    [...command, "import", "--data", data, "--from", "codex-rollout", history],
    {
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  let summary = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (summary += text));
  let peakKb = 0;
  const timer = setInterval(async () => {
    try {
      const hwm = /VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${child.pid}/status`, "utf8"))?.[1];
      if (hwm) peakKb = Math.max(peakKb, Number(hwm));
    } catch {
      // exited
    }
  }, 25);
  const exitCode = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  clearInterval(timer);
  return {
    seconds: (Date.now() - start) / 1000,
    peakRssMb: peakKb / 1024,
    exitCode,
    summary: summary.trim(),
  };
}

export async function importBench(command: string[], bytes: number) {
  const root = await mkdtemp(join(tmpdir(), "provider-runtime-bench-import-"));
  try {
    const history = join(root, "sessions");
    const written = await writeHistory(history, bytes);
    const data = join(root, "data");
    const first = await importProcess(command, data, history);
    const second = await importProcess(command, data, history);
    const storeBytes = (await stat(join(data, "store.db"))).size;
    return { ...written, first, second, storeBytes };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
