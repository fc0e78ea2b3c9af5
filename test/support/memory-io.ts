import { PassThrough, Readable } from "node:stream";
import type { CliIo } from "../../src/cli/usage.js";

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
}

/** A CliIo over in-memory streams, for running commands in-process. */
export function memoryIo(stdinText = ""): MemoryIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  stdout.on("data", (c: Buffer) => outChunks.push(c));
  stderr.on("data", (c: Buffer) => errChunks.push(c));
  return {
    stdin: Readable.from([stdinText]),
    stdout,
    stderr,
    isTTY: false,
    out: () => Buffer.concat(outChunks).toString("utf8"),
    err: () => Buffer.concat(errChunks).toString("utf8"),
  };
}
