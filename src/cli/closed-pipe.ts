/** The commands that only write a result: for them a reader that went away (`| head`) ends the run. */
export const PIPE_COMMANDS = new Set(["normalize", "verify", "project", "view", "schema", "coverage"]);

/**
 * `view FILE | head -1`: once the reader has closed the pipe, stdout's next write fails with EPIPE. That is not
 * an error of the command: it ends quietly, exit 0, with no stack trace. Any other write error stays one.
 */
export function endQuietlyOnClosedPipe(
  stdout: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    exit(0);
  });
}
