import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { CliProcess, removePrivateTmps } from "./support/cli-process.js";

afterAll(removePrivateTmps);

const CHAT = ["chat", "--provider", "codex", "--mock"];
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, "g"))?.length ?? 0;
const turnsEnded = (cli: CliProcess) => count(cli.stdout, /── turn (completed|interrupted)/);

describe("chat on a terminal (pseudo-terminal, real codex app-server, mock model)", () => {
  it("two turns, a Ctrl-C that interrupts the second, /quit: exit 0, session.exited, scratch dir gone", async () => {
    const cli = new CliProcess(CHAT, { tty: true });
    await cli.waitFor("err", /you> /);
    cli.type("mock:text hello\r");
    await cli.waitFor("out", /── turn completed/);
    // The next prompt is the one after the line typed (that line's echo follows the first prompt).
    await cli.waitFor("err", /mock:text hello[\s\S]*you> /);
    cli.type("mock:long tell me more\r");
    await cli.waitFor("out", /── turn started[\s\S]*── turn started/);
    cli.type("\u0003");
    await cli.waitFor("err", /interrupting the turn/);
    await cli.waitFor("out", /── turn completed[\s\S]*── turn interrupted/);
    expect(turnsEnded(cli)).toBe(2);
    await cli.waitFor("err", /interrupting the turn[\s\S]*you> /);
    cli.type("/quit\r");
    expect(await cli.exited).toBe(0);
    expect(cli.stdout.trim().split("\n").at(-1)).toMatch(/session ended/);
    expect(cli.stdout).toContain("mock final answer: text");
    // a conversation: no protocol line
    expect(cli.stdout).not.toMatch(/provider\.event|session\.state\.changed|turn\.started/);
    expect(readdirSync(cli.tmp).filter((name) => name.startsWith("provider-runtime-"))).toEqual([]);
  });

  it("/attach of a path that is no readable file says so at the prompt, not when the turn fails", async () => {
    const cli = new CliProcess(CHAT, { tty: true });
    await cli.waitFor("err", /you> /);
    cli.type("/attach /no/such/file.png\r");
    await cli.waitFor("err", /cannot read \/no\/such\/file\.png/);
    cli.type("/attach docs\r");
    await cli.waitFor("err", /docs is not a file/);
    cli.type("/quit\r");
    expect(await cli.exited).toBe(0);
  });

  it("/fork goes on on a fork after the last turn: session.started says so, and no temp dir stays", async () => {
    const cli = new CliProcess([...CHAT, "--json"], { tty: true });
    await cli.waitFor("err", /you> /);
    cli.type("mock:text alpha\r");
    await cli.waitFor("out", /"turn\.completed"/);
    await cli.waitFor("err", /mock:text alpha[\s\S]*you> /);
    const parent = cli.events()[0]?.sessionId;
    const turn = cli.events().find((e) => e.type === "turn.completed")?.turnId;
    cli.type("/fork\r");
    await cli.waitFor("err", /forked: now on session (\S+)/);
    const fork = /forked: now on session (\S+)/.exec(cli.stderr)?.[1];
    cli.type("mock:text gamma\r");
    await cli.waitFor("out", /"turn\.completed"[\s\S]*"turn\.completed"/);
    const started = cli.events().filter((e) => e.type === "session.started");
    expect(started.map((e) => e.sessionId)).toEqual([parent, fork]);
    expect(started[1]?.payload).toMatchObject({ forkedFrom: { sessionId: parent, turnId: turn } });
    expect(
      cli
        .events()
        .filter((e) => e.type === "turn.completed")
        .at(-1)?.sessionId,
    ).toBe(fork);
    cli.type("/quit\r");
    expect(await cli.exited).toBe(0);
    expect(readdirSync(cli.tmp).filter((name) => name.startsWith("provider-runtime-"))).toEqual([]);
  });

  it("/fork in the conversation view: the answers of both sessions read as one conversation", async () => {
    const cli = new CliProcess(CHAT, { tty: true });
    await cli.waitFor("err", /you> /);
    cli.type("mock:text alpha\r");
    await cli.waitFor("out", /── turn completed/);
    await cli.waitFor("err", /mock:text alpha[\s\S]*you> /);
    cli.type("/fork\r");
    await cli.waitFor("err", /forked: now on session \S+[\s\S]*you> /);
    cli.type("mock:text gamma\r");
    await cli.waitFor("out", /── turn completed[\s\S]*── turn completed/);
    const fork = /forked: now on session (\S+)/.exec(cli.stderr)?.[1];
    // the hand-over reads as one: no "session ended" between the two answers, a line naming the fork
    const answers = cli.stdout.split("mock final answer: text");
    expect(answers).toHaveLength(3);
    expect(answers[1]).toContain(`── forked: the conversation goes on in session ${fork}`);
    expect(answers[1]).not.toMatch(/session ended/);
    cli.type("/quit\r");
    expect(await cli.exited).toBe(0);
  });

  it("Ctrl-C twice quits with 130, the session stopped cleanly", async () => {
    const cli = new CliProcess([...CHAT, "--json"], { tty: true });
    await cli.waitFor("err", /you> /);
    cli.type("\u0003");
    await cli.waitFor("err", /Ctrl-C again to quit/);
    cli.type("\u0003");
    expect(await cli.exited).toBe(130);
    expect(cli.events().at(-1)?.type).toBe("session.exited");
  });
});
