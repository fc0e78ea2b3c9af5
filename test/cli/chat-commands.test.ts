import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CliProcess, removePrivateTmps } from "./support/cli-process.js";

/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const dir = mkdtempSync(join(tmpdir(), "chat-attach-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removePrivateTmps();
});

const completed = (cli: CliProcess) => cli.events().filter((e) => e.type === "turn.completed").length;

describe("chat's command surface (pseudo-terminal, real codex app-server, mock model)", () => {
  it("/model, /mode, /attach; typing while a turn runs steers it, >> queues the next turn", async () => {
    const image = join(dir, "pixel.png");
    writeFileSync(image, Buffer.from(PNG, "base64"));
    const cli = new CliProcess(["chat", "--provider", "codex", "--mock", "--json"], { tty: true });
    await cli.waitFor("err", /you> /);

    cli.type("/model\r");
    await cli.waitFor("err", /models: .*gpt-5\.5/);
    cli.type("/model gpt-5.6-luna\r");
    await cli.waitFor("err", /model: gpt-5\.6-luna \(from the next turn on\)/);
    cli.type("/mode plan\r");
    await cli.waitFor("err", /mode: plan/);
    cli.type("/mode no-such-mode\r");
    await cli.waitFor("err", /could not change the mode: mode: the agent offers no mode no-such-mode/);
    const configured = cli
      .events()
      .filter((e) => e.type === "session.configured")
      .map((e) => e.payload);
    expect(configured).toContainEqual({ config: { model: "gpt-5.6-luna" } });
    expect(configured).toContainEqual({ config: { mode: { id: "plan", canonical: "plan" } } });

    cli.type(`/attach ${image}\r`);
    await cli.waitFor("err", /attached .*pixel\.png \(image\) to the next prompt/);
    cli.type("mock:text look at this\r");
    await cli.waitFor("out", /"type":"turn\.completed"/);
    // the image went to Codex as its native local image input
    const turnStart = cli.events().find((e) => JSON.stringify(e.raw ?? "").includes('"localImage"'));
    expect(JSON.stringify(turnStart?.raw)).toContain(image);

    await cli.waitFor("err", /look at this[\s\S]*you> /);
    cli.type("mock:long write a lot\r");
    await cli.waitFor("out", /"type":"turn\.started"[\s\S]*"type":"turn\.started"/);
    cli.type("mock:text steered words\r");
    await cli.waitFor("err", /steered: the running turn takes it/);
    cli.type(">> mock:text queued words\r");
    await cli.waitFor("err", /queued: it starts when this turn ends/);
    await cli.waitFor("out", /("type":"turn\.completed"[\s\S]*){3}/, { timeoutMs: 120_000 });
    expect(completed(cli)).toBe(3);
    const items = cli
      .events()
      .filter((e) => e.type === "item.completed" && e.payload.itemType === "user_message");
    const turnOf = (text: string) => items.find((e) => JSON.stringify(e.payload).includes(text))?.turnId;
    expect(turnOf("steered words")).toBe(turnOf("write a lot"));
    expect(turnOf("queued words")).toBeDefined();
    expect(turnOf("queued words")).not.toBe(turnOf("write a lot"));
    await cli.waitFor("err", /queued: it starts when this turn ends[\s\S]*you> /);
    cli.type("/quit\r");
    expect(await cli.exited).toBe(0);
  }, 180_000);
});
