import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import { verifyEvents } from "../../src/verify/index.js";
import { memoryIo } from "../support/memory-io.js";
import { CliProcess, FAKE_ACP_AGENT, removePrivateTmps } from "./support/cli-process.js";

afterAll(removePrivateTmps);

// The fake agent asks for "cat README.md" and "rm -rf $HOME" at once, then puts one question (a colour), and
// repeats what it was answered in its closing message.
const FAKE_RUN = [
  "run",
  "--provider",
  "acp",
  "--agent",
  `node ${FAKE_ACP_AGENT}`,
  "--json",
  "--timeout",
  "40",
  "go",
];

const decisions = (events: RuntimeEvent[]) =>
  events.flatMap((e) =>
    e.type === "request.resolved" ? [`${e.payload.requestType}:${e.payload.decision}`] : [],
  );
const opened = (events: RuntimeEvent[]) => events.flatMap((e) => (e.type === "request.opened" ? [e] : []));
const agentSaid = (events: RuntimeEvent[]) =>
  events.map((e) => (e.type === "content.delta" ? e.payload.delta : "")).join("");

async function finished(cli: CliProcess): Promise<RuntimeEvent[]> {
  expect(await cli.exited).toBe(0);
  const events = cli.events();
  expect(verifyEvents(events)).toEqual([]);
  expect(events.at(-1)?.type).toBe("session.exited");
  expect(readdirSync(cli.tmp).filter((name) => name.startsWith("provider-runtime-run-"))).toEqual([]);
  return events;
}

describe("run --approve ask on a terminal (pseudo-terminal, a fake ACP agent with concurrent requests)", () => {
  it("one prompt at a time, naming its request: one typed answer answers one request; the question is asked", async () => {
    const cli = new CliProcess(FAKE_RUN, { tty: true });
    await cli.waitFor("err", /cat README\.md/);
    expect(cli.stderr).not.toMatch(/rm -rf/);
    const second = cli.stderr.length;
    cli.type("y\r");
    await cli.waitFor("err", /rm -rf \$HOME/, { from: second });
    await cli.waitFor("out", /"type":"request\.resolved"/);
    await new Promise((settle) => setTimeout(settle, 500));
    // The "y" resolved the first request only: the second waits at its own prompt, which names it.
    expect(decisions(cli.events())).toEqual(["command_execution_approval:accept"]);
    const [cat, rm] = opened(cli.events());
    expect(cli.stderr.slice(0, second)).toContain(`request ${cat?.requestId}`);
    expect(cli.stderr.slice(second)).toMatch(new RegExp(`request ${rm?.requestId}[\\s\\S]*approve\\? `));
    cli.type("n\r");
    await cli.waitFor("err", /Report colour[\s\S]*2\) blue[\s\S]*answer/);
    cli.type("2\r");
    const events = await finished(cli);
    expect(decisions(events)).toEqual([
      "command_execution_approval:accept",
      "command_execution_approval:decline",
      "mcp_elicitation:accept",
    ]);
    expect(agentSaid(events)).toContain("answers: cat=allow-once rm=reject-once colour=blue");
  });

  it("EOF (Ctrl-D) at the prompt cancels that request, the one behind it, and the question: no 300 s wait", async () => {
    const cli = new CliProcess(FAKE_RUN, { tty: true });
    await cli.waitFor("err", /cat README\.md/);
    cli.type("\u0004");
    const events = await finished(cli);
    expect(decisions(events)).toEqual([
      "command_execution_approval:cancel",
      "command_execution_approval:cancel",
      "mcp_elicitation:cancel",
    ]);
    expect(agentSaid(events)).toContain("cat=cancelled rm=cancelled colour=cancel");
    expect(cli.stderr).not.toMatch(/Report colour/);
  });

  it("Ctrl-C at the prompt cancels the queued requests; a later request is asked again", async () => {
    const cli = new CliProcess(FAKE_RUN, { tty: true });
    await cli.waitFor("err", /cat README\.md/);
    cli.type("\u0003");
    await cli.waitFor("err", /Report colour[\s\S]*answer/);
    cli.type("red\r");
    const events = await finished(cli);
    expect(decisions(events)).toEqual([
      "command_execution_approval:cancel",
      "command_execution_approval:cancel",
      "mcp_elicitation:accept",
    ]);
    expect(agentSaid(events)).toContain("cat=cancelled rm=cancelled colour=red");
  });
});

describe("run --approve accept off a terminal (in-process, the fake agent)", () => {
  it("accepts the permissions and declines the question instead of inventing answers", async () => {
    const io = memoryIo();
    const argv = [
      "run",
      "--provider",
      "acp",
      "--agent",
      `node ${FAKE_ACP_AGENT}`,
      "--approve",
      "accept",
      "--json",
      "go",
    ];
    expect(await main(argv, io)).toBe(0);
    const events = io
      .out()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RuntimeEvent);
    expect(decisions(events)).toEqual([
      "command_execution_approval:accept",
      "command_execution_approval:accept",
      "mcp_elicitation:decline",
    ]);
    expect(agentSaid(events)).toContain("colour=decline");
    expect(io.err()).not.toMatch(/approve\?/);
  });
});

describe("run against an agent offering session-mode options and calling a capability we do not offer", () => {
  const MODES_RUN = [...FAKE_RUN.slice(0, -1), "modes"];

  it("[a]lways on a terminal never selects a mode that widens permissions; the refused fs call is not a request", async () => {
    const cli = new CliProcess(MODES_RUN, { tty: true });
    await cli.waitFor("err", /Ready to code\?[\s\S]*approve\? /);
    cli.type("a\r");
    const events = await finished(cli);
    expect(agentSaid(events)).toContain("answers: plan=default fs=-32601");
    expect(opened(events)).toHaveLength(1);
    expect(events.some((e) => e.type === "provider.event" && e.payload.name === "fs/read_text_file")).toBe(
      true,
    );
    expect(cli.stderr).not.toMatch(/read_text_file[\s\S]*approve\?/);
  });

  it("--approve accept picks the one-call option too", async () => {
    const cli = new CliProcess([...MODES_RUN.slice(0, 1), "--approve", "accept", ...MODES_RUN.slice(1)], {});
    const events = await finished(cli);
    expect(agentSaid(events)).toContain("answers: plan=default fs=-32601");
  });
});
