import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { REPO } from "./browser.js";

/** `provider-runtime serve --mock` from the built CLI, on its own data dir and TMPDIR. */
export class ServeProcess {
  readonly child: ChildProcess;
  readonly url: Promise<string>;
  readonly exited: Promise<number | null>;
  #err = "";

  constructor(options: { data: string; tmp: string; token: string; root: string; port?: number }) {
    this.child = spawn(
      process.execPath,
      [
        join(REPO, "bin/provider-runtime.js"),
        "serve",
        "--mock",
        "--data",
        options.data,
        "--token",
        options.token,
        "--root",
        options.root,
        "--port",
        String(options.port ?? 0),
      ],
      {
        cwd: REPO,
        env: { ...process.env, TMPDIR: options.tmp, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      this.#err += text;
    });
    this.exited = new Promise((done) => this.child.once("close", (code) => done(code)));
    this.url = new Promise((done, fail) => {
      let out = "";
      const timer = setTimeout(() => fail(new Error(`serve did not start:\n${this.#err}`)), 30_000);
      this.child.stdout?.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          done(match[1]);
        }
      });
      void this.exited.then((code) => fail(new Error(`serve exited ${code}:\n${this.#err}`)));
    });
  }

  get stderr(): string {
    return this.#err;
  }

  /** SIGTERM, as an operator stops it: the server stops its sessions and exits. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }
}
