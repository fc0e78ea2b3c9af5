import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionFileLines, subagentFilesOf } from "../../src/node/claude-code-session.js";
import { sessionFile } from "../claude-code/recordings.js";

const dir = mkdtempSync(join(tmpdir(), "claude-code-session-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of sessionFileLines(file)) if (typeof line === "string") lines.push(line);
  return lines;
}

const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const SUBAGENTS = join(sessionFile("subagent").replace(/\.jsonl$/, ""), "subagents");
const agentFile = () => readdirSync(SUBAGENTS).find((name) => name.endsWith(".jsonl")) as string;

describe("sessionFileLines", () => {
  it("a file without subagents: its lines as they are", async () => {
    expect(await subagentFilesOf(sessionFile("shell"))).toEqual([]);
    expect(await collect(sessionFile("shell"))).toEqual(lines(sessionFile("shell")));
  });

  it("2.1.x: merges <session>/subagents/agent-*.jsonl in by time, each file's order kept", async () => {
    expect(await subagentFilesOf(sessionFile("subagent"))).toEqual([join(SUBAGENTS, agentFile())]);
    const merged = await collect(sessionFile("subagent"));
    const main = lines(sessionFile("subagent"));
    const sub = lines(join(SUBAGENTS, agentFile()));
    expect(merged).toHaveLength(main.length + sub.length);
    expect(merged.filter((line) => main.includes(line))).toEqual(main);
    expect(merged.filter((line) => sub.includes(line))).toEqual(sub);
    // the subagent runs between its Agent call and the call's result
    const spawn = merged.findIndex((line) => line.includes('"name":"Agent"'));
    const handBack = merged.findIndex((line) => line.includes('"toolUseResult":{"status":"completed"'));
    const first = merged.indexOf(sub[0] as string);
    expect(spawn).toBeLessThan(first);
    expect(first).toBeLessThan(handBack);
  });

  it("2.0.x: an agent-*.jsonl beside the session file is its subagent only when its records name the session", async () => {
    const main = lines(sessionFile("subagent"));
    const sessionId = (
      JSON.parse(main.find((l) => l.includes('"sessionId"')) as string) as { sessionId: string }
    ).sessionId;
    const file = join(dir, `${sessionId}.jsonl`);
    copyFileSync(sessionFile("subagent"), file);
    copyFileSync(join(SUBAGENTS, agentFile()), join(dir, agentFile()));
    writeFileSync(join(dir, "agent-other.jsonl"), '{"type":"user","sessionId":"another-session"}\n');
    expect(await subagentFilesOf(file)).toEqual([join(dir, agentFile())]);
    expect(await collect(file)).toHaveLength(main.length + lines(join(SUBAGENTS, agentFile())).length);
  });
});
