import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { privateTmp, processesWithTmpdir } from "../cli/support/cli-process.js";
import { ServeProcess } from "./support/serve-process.js";

afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

describe("serve --root, checked whenever an agent starts (real codex, mock model)", () => {
  it("a session made before --root was set does not resume outside it after a restart: 403, no agent started", async () => {
    const tmp = privateTmp();
    const first = await ServeProcess.start({ token: "t", tmp, extra: ["--mock"] });
    const created = await first.json<{ id: string; cwd: string }>("/v1/sessions", {
      method: "POST",
      json: { provider: "codex" },
    });
    expect(created.status).toBe(201);
    await first.stop();
    const root = join(tmp, "root");
    mkdirSync(root);
    const second = await ServeProcess.start({
      token: "t",
      data: first.data,
      tmp,
      extra: ["--mock", "--root", root],
    });
    const turn = await second.json<{ error: string }>(`/v1/sessions/${created.body.id}/turns`, {
      method: "POST",
      json: { text: "hello" },
    });
    expect(turn.status).toBe(403);
    expect(turn.body.error).toMatch(/outside the server's --root/);
    expect(processesWithTmpdir(tmp).filter((pid) => pid !== second.child.pid)).toEqual([]);
  }, 120_000);

  it("a cwd that is a file is a 400 naming cwd, not a session in state error", async () => {
    const tmp = privateTmp();
    const file = join(tmp, "a-file");
    writeFileSync(file, "x");
    const server = await ServeProcess.start({ token: "t", tmp, extra: ["--mock"] });
    const created = await server.json<{ error: string; field: string }>("/v1/sessions", {
      method: "POST",
      json: { provider: "codex", cwd: file },
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ field: "cwd" });
    expect(created.body.error).toMatch(/not a directory/);
  }, 60_000);
});
