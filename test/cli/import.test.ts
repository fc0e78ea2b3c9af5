import { spawn } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { verifyEvents } from "../../src/verify/index.js";
import { placeRollouts, storedEvents, tempHome } from "../history/history-fixture.js";
import { CLI, REPO } from "./support/cli-process.js";

/**
 * Root reads any directory. As root the import runs without the capabilities that override file modes, so a
 * mode-000 directory is unreadable to it too; it stays root, so it still reads a checkout only root may enter.
 */
const WITHOUT_OVERRIDE =
  process.getuid?.() === 0 ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] : [];

function runCli(args: string[], env: NodeJS.ProcessEnv, tty = false) {
  const command = [
    ...WITHOUT_OVERRIDE,
    ...(tty ? ["python3", join(REPO, "test/cli/support/pty-run.py")] : []),
    process.execPath,
    CLI,
    ...args,
  ];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: REPO,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

it("import (the built CLI) reads the default paths, warns once per bad input, and says what it did", async () => {
  const home = await tempHome();
  try {
    await placeRollouts(join(home.root, ".codex", "sessions"), {
      text: "2026/11/30/rollout-2026-11-30T08-49-15-a.jsonl",
      shell: "2026/12/01/rollout-2026-12-01T01-00-00-b.jsonl",
    });
    await writeFile(join(home.root, ".codex", "sessions", "rollout-notes.jsonl"), "just some notes\n");
    const locked = join(home.root, ".codex", "sessions", "2026", "locked");
    await mkdir(locked);
    await chmod(locked, 0o000);
    const env = { HOME: home.root };

    const first = await runCli(["import", "--from", "codex-rollout"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(
      "import: sessions 2 new, 0 grown, 0 unchanged, 1 skipped; 55 events (0 runtime.warning); 2 warnings\n",
    );
    const lines = first.stderr.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("import: warning:"))).toEqual([
      expect.stringContaining("rollout-notes.jsonl is not a codex-rollout session file"),
      expect.stringMatching(/^import: warning: cannot read directory .*\/2026\/locked: EACCES$/),
    ]);
    expect(lines.filter((line) => line.startsWith("import: new "))).toHaveLength(2);

    const second = await runCli(["import", "--data", join(home.root, ".provider-runtime")], env);
    expect(second.stdout).toBe(
      "import: sessions 0 new, 0 grown, 2 unchanged, 1 skipped; 0 events (0 runtime.warning); 2 warnings\n",
    );

    // on a terminal: a counter line rewritten in place instead of a line per file
    const onTty = await runCli(["import", "--data", join(home.root, "tty-data")], env, true);
    expect(onTty.code).toBe(0);
    expect(onTty.stderr).toContain("\r\x1b[2Kimport: 1 files");
    expect(onTty.stderr).not.toContain("import: new ");
    expect(onTty.stdout).toContain("2 new");

    await chmod(locked, 0o700);
    const store = await openSqliteStore({ dataDir: join(home.root, ".provider-runtime") });
    try {
      const sessions = await store.listSessions();
      expect(sessions.map((s) => s.provider)).toEqual(["codex-rollout", "codex-rollout"]);
      for (const session of sessions) expect(verifyEvents(await storedEvents(store, session.id))).toEqual([]);
    } finally {
      await store.close();
    }
  } finally {
    await home.remove();
  }
});

it("import: a usage error for an unknown source, exit 2", async () => {
  const home = await tempHome();
  try {
    const run = await runCli(["import", "--from", "cursor"], { HOME: home.root });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown source "cursor"; expected one of: claude-code, codex-rollout');
  } finally {
    await home.remove();
  }
});
