import { spawnSync } from "node:child_process";
import { appendFile, copyFile, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { claudeProjectDirName } from "../../src/providers/claude/project-dir.js";
import { CLI } from "../cli/support/cli-process.js";
import { ServeProcess } from "./support/serve-process.js";
import { requestsWith, sendTurn, storedEvents, turnsEnded, verifies } from "./support/stored-turns.js";

/**
 * Issue #33: a fork of an imported (read-only) history becomes a live session of the provider that wrote it. The
 * history is a REAL run's native file: a first server runs Claude Code / the Codex app-server against the mock
 * model for two turns, the file the agent wrote is imported into a second server's store, and that server forks
 * it (whole, and after the first turn) over HTTP. A native file gone since the import is a 422 with the reason.
 */

const TOKEN = "import-fork-token";
let mock: MockModelServer;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

const SOURCES = { claude: "claude-code", codex: "codex-rollout" } as const;

/** Every file under `dir` whose name passes `wanted`. */
async function filesUnder(dir: string, wanted: (name: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && wanted(e.name)).map((e) => join(e.parentPath, e.name));
}

/** The session file the agent of a live session wrote in its native state dir under the server's data. */
async function nativeFileOf(server: ServeProcess, id: string, provider: "claude" | "codex"): Promise<string> {
  const state = join(server.data, "sessions", id);
  const files =
    provider === "claude"
      ? await filesUnder(join(state, "claude-config", "projects"), (name) => name.endsWith(".jsonl"))
      : await filesUnder(join(state, "codex-home", "sessions"), (name) => name.startsWith("rollout-"));
  expect(files).toHaveLength(1);
  return files[0] as string;
}

async function fork(
  server: ServeProcess,
  parent: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: { id: string; parentId: string; provider: string; error?: string } }> {
  return server.json(`/v1/sessions/${parent}/fork`, { method: "POST", json: body });
}

function importInto(data: string, source: string, file: string): void {
  const run = spawnSync(process.execPath, [CLI, "import", "--data", data, "--from", source, file], {
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("1 new");
}

describe("a fork of an imported history, over HTTP only", () => {
  for (const provider of ["claude", "codex"] as const) {
    it(provider, async () => {
      const tag = `${provider}${Date.now()}`;
      const [alpha, beta, gamma, delta] = ["alpha", "beta", "gamma", "delta"].map((w) => `${w}${tag}`) as [
        string,
        string,
        string,
        string,
      ];
      // a real run writes the native file: two turns, then the agent is stopped
      const recorder = await ServeProcess.start({ token: TOKEN, extra: ["--model-url", mock.baseUrl] });
      // a cwd past 200 characters, whose Claude Code project dir name is cut and hashed
      const cwdRoot = await mkdtemp(join(tmpdir(), "import-fork-cwd-"));
      dirs.push(cwdRoot);
      const cwd = join(cwdRoot, "a-long.dir".repeat(12), "b".repeat(90));
      await mkdir(cwd, { recursive: true });
      const created = await recorder.json<{ id: string }>("/v1/sessions", {
        method: "POST",
        json: { provider, cwd },
      });
      expect(created.status).toBe(201);
      const live = created.body.id;
      await sendTurn(recorder, live, `mock:text ${alpha}`);
      await turnsEnded(recorder, live, 1);
      await sendTurn(recorder, live, `mock:text ${beta}`);
      await turnsEnded(recorder, live, 2);
      expect((await recorder.fetch(`/v1/sessions/${live}`, { method: "DELETE" })).status).toBe(200);
      const written = await nativeFileOf(recorder, live, provider);
      // where the real Claude Code filed it: the encoding a fork's copy must use for Claude Code to find it
      if (provider === "claude") expect(basename(dirname(written))).toBe(claudeProjectDirName(cwd));
      const history = await mkdtemp(join(tmpdir(), "import-fork-history-"));
      dirs.push(history);
      const file = join(history, basename(written));
      await copyFile(written, file);

      const data = await mkdtemp(join(tmpdir(), "import-fork-data-"));
      dirs.push(data);
      importInto(data, SOURCES[provider], file);
      let server = await ServeProcess.start({ data, token: TOKEN, extra: ["--model-url", mock.baseUrl] });
      const listed = await server.json<{ sessions: Array<{ id: string; provider: string }> }>("/v1/sessions");
      const imported = listed.body.sessions.find((s) => s.provider === SOURCES[provider])?.id as string;
      expect(imported).toBeDefined();
      const importedEvents = await storedEvents(server, imported);
      const firstTurn = importedEvents.find((e) => e.type === "turn.started")?.turnId as string;

      // the whole history: the fork's turn holds both imported turns
      const whole = await fork(server, imported, {});
      expect(whole.status, JSON.stringify(whole.body)).toBe(201);
      expect(whole.body).toMatchObject({ parentId: imported, provider });
      await sendTurn(server, whole.body.id, `mock:text ${gamma}`);
      const wholeEvents = await turnsEnded(server, whole.body.id, 1);
      expect(wholeEvents.find((e) => e.type === "session.started")?.payload.forkedFrom).toEqual({
        sessionId: imported,
      });
      const wholeSaw = requestsWith(mock, gamma);
      expect(wholeSaw.length).toBeGreaterThan(0);
      for (const body of wholeSaw)
        expect(body.includes(alpha) && body.includes(beta), `${gamma}'s request holds both turns`).toBe(true);

      // after the first turn: the fork's turn holds the first imported turn and not the second
      const early = await fork(server, imported, { afterTurnId: firstTurn });
      expect(early.status, JSON.stringify(early.body)).toBe(201);
      expect(early.body).toMatchObject({ parentId: imported, provider });
      await sendTurn(server, early.body.id, `mock:text ${delta}`);
      const earlyEvents = await turnsEnded(server, early.body.id, 1);
      expect(earlyEvents.find((e) => e.type === "session.started")?.payload.forkedFrom).toEqual({
        sessionId: imported,
        turnId: firstTurn,
      });
      const earlySaw = requestsWith(mock, delta);
      expect(earlySaw.length).toBeGreaterThan(0);
      for (const body of earlySaw) {
        // booleans: a failure should not print a whole model request
        expect(body.includes(alpha), `${delta}'s request holds ${alpha}`).toBe(true);
        expect(body.includes(beta), `${delta}'s request holds ${beta}`).toBe(false);
        expect(body.includes(gamma), `${delta}'s request holds ${gamma}`).toBe(false);
      }

      // an unknown turn is still a 400 naming it
      const unknown = await fork(server, imported, { afterTurnId: "turn_nosuchturn" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toContain("turn_nosuchturn");

      for (const id of [whole.body.id, early.body.id]) {
        expect((await server.fetch(`/v1/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
        verifies(server, await storedEvents(server, id), id);
      }

      // against the real model APIs the agents keep the user's own config homes, where this file is not
      expect(await server.stop()).toBe(143);
      const home = await mkdtemp(join(tmpdir(), "import-fork-home-"));
      dirs.push(home);
      const homes = {
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, ".claude"),
        CODEX_HOME: join(home, ".codex"),
      };
      server = await ServeProcess.start({ data, token: TOKEN, env: homes });
      const notHome = await fork(server, imported, {});
      expect([notHome.status, notHome.body.error]).toEqual([422, "unsupported"]);
      expect(JSON.stringify(notHome.body)).toContain(
        provider === "claude" ? homes.CLAUDE_CONFIG_DIR : homes.CODEX_HOME,
      );

      // the cwd the history ran in lies outside --root: no fork can run there
      expect(await server.stop()).toBe(143);
      const elsewhere = await mkdtemp(join(tmpdir(), "import-fork-root-"));
      dirs.push(elsewhere);
      server = await ServeProcess.start({
        data,
        token: TOKEN,
        extra: ["--model-url", mock.baseUrl, "--root", elsewhere],
      });
      const outside = await fork(server, imported, {});
      expect([outside.status, outside.body.error]).toEqual([422, "unsupported"]);
      expect(JSON.stringify(outside.body)).toContain("outside the server's --root");

      // the native file changed since the import: the stored events are no longer all of it
      await appendFile(file, "\n");
      const changed = await fork(server, imported, {});
      expect([changed.status, changed.body.error]).toEqual([422, "unsupported"]);
      expect(JSON.stringify(changed.body)).toContain("changed since the import");

      // the native file gone since the import: nothing can resume it
      await rm(file);
      const gone = await fork(server, imported, {});
      expect([gone.status, gone.body.error]).toEqual([422, "unsupported"]);
      expect(JSON.stringify(gone.body)).toContain("is gone since the import");
      expect(await server.stop()).toBe(143);
      expect(await recorder.stop()).toBe(143);
    }, 400_000);
  }
});
