import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServeProcess } from "./support/serve-process.js";

/**
 * §9/§12: the OpenAPI document is enough for a host in another stack. Against a real `serve --mock`: redocly lints
 * the document (read without the token) with 0 errors, openapi-typescript generates the types, a host written
 * with openapi-fetch typechecks with --strict and drives a whole session.
 */

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, "../..");
const TOKEN = "generated-client-token-0123456789";
let server: ServeProcess;
let work: string;
let root: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "generated-client-"));
  root = join(work, "root");
  mkdirSync(root);
  mkdirSync(join(work, "tmp"));
  symlinkSync(join(REPO, "node_modules"), join(work, "node_modules"));
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module", private: true }));
  server = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", root] });
});

afterAll(async () => {
  await server?.stop();
  ServeProcess.removeDirs();
  rmSync(work, { recursive: true, force: true });
});

describe("a client generated from /v1/openapi.json", () => {
  it("is a document redocly lints with no error, read without the token", async () => {
    const response = await fetch(`${server.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    writeFileSync(join(work, "openapi.json"), await response.text());
    const cli = join(REPO, "node_modules/@redocly/cli/bin/cli.js");
    const lint = await run(process.execPath, [cli, "lint", join(work, "openapi.json")], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${lint.stdout}${lint.stderr}`).toMatch(/Your API description is valid/);
  }, 60_000);

  it("typechecks with --strict and drives a session: create, turn, approve, events, stop", async () => {
    const document = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    writeFileSync(
      join(work, "api.d.ts"),
      astToString(await openapiTS(document as Parameters<typeof openapiTS>[0])),
    );
    copyFileSync(
      join(import.meta.dirname, "generated-client/drive-session.ts.in"),
      join(work, "drive-session.ts"),
    );
    const tsc = join(REPO, "node_modules/typescript/bin/tsc");
    const flags = ["--strict", "--noEmit", "--skipLibCheck", "--exactOptionalPropertyTypes"];
    const options = [
      "--noUncheckedIndexedAccess",
      "--module",
      "nodenext",
      "--target",
      "es2022",
      "--types",
      "node",
    ];
    const checked = await run(process.execPath, [tsc, ...flags, ...options, join(work, "drive-session.ts")], {
      cwd: work,
    }).catch((error: { stdout: string }) => error);
    expect(checked.stdout).toBe("");

    const tsx = join(REPO, "node_modules/tsx/dist/cli.mjs");
    const driven = await run(
      process.execPath,
      [tsx, join(work, "drive-session.ts"), server.url, TOKEN, root],
      {
        cwd: work,
        timeout: 120_000,
        // tsx keeps a cache in TMPDIR: this one goes with `work`
        env: { ...process.env, TMPDIR: join(work, "tmp") },
      },
    );
    const result = JSON.parse(driven.stdout.trim().split("\n").at(-1) ?? "{}");
    expect(result).toMatchObject({ turnState: "completed", stoppedState: "stopped", turns: 1, withRaw: 0 });
    expect(result.commands.join(" ")).toMatch(/mock-shell-output/);
    expect(result.types).toEqual(
      expect.arrayContaining(["request.opened", "request.resolved", "turn.completed"]),
    );
  }, 180_000);
});
