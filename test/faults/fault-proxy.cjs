// Fault injector: runs the REAL program (argv[3..]) behind this process and tampers with its stdout.
// argv[2] is a JSON config: { mode, after }. Modes:
//   pass          forward everything unchanged
//   exit          after the first stdout line containing `after`: kill the program and exit (code 3)
//   garbage       after that line: write a line that is not JSON
//   partial       after that line: write a copy of the next line cut in the middle of its JSON
//   close-stdout  after that line: close our stdout while the program keeps running
//   mute          never write anything to stdout (the program runs, but never answers)
//   hang          do not start the program at all: sleep until killed
"use strict";
const { spawn } = require("node:child_process");
const { closeSync } = require("node:fs");

const config = JSON.parse(process.argv[2]);
const [command, ...args] = process.argv.slice(3);
if (config.mode === "hang") {
  setInterval(() => {}, 60_000);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => process.exit(1));
} else {
  runProgram();
}

function runProgram() {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  process.stdin.pipe(child.stdin);
  child.stdin.on("error", () => {});
  process.stdout.on("error", () => {});

  let fired = false;
  let cutNext = false;
  let stdoutOpen = config.mode !== "mute";
  let buffer = "";

  function write(text) {
    if (stdoutOpen) process.stdout.write(text);
  }

  function onLine(line) {
    if (cutNext) {
      cutNext = false;
      write(`${line.slice(0, Math.max(1, Math.floor(line.length / 2)))}\n`);
    }
    write(`${line}\n`);
    if (fired || config.after === undefined || !line.includes(config.after)) return;
    fired = true;
    if (config.mode === "exit") {
      child.kill("SIGKILL");
      process.exit(3);
    }
    if (config.mode === "garbage") write("this is not json\n");
    if (config.mode === "partial") cutNext = true;
    if (config.mode === "close-stdout") {
      stdoutOpen = false;
      closeSync(1);
    }
  }

  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      onLine(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
    }
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
