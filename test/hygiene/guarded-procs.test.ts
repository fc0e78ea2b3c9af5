import { describe, expect, it } from "vitest";
import { splitByGuard } from "./guarded-procs.js";

const HOST = 100;
const isGuard = (argv: string[]) => argv[1] === "-e" && argv[2] === "guard";
const split = (procs: { pid: number; ppid: number }[], argvs: Record<number, string[] | undefined>) =>
  splitByGuard(
    procs.map((proc) => ({ ...proc, pgid: proc.pid })),
    (pid) => argvs[pid],
    isGuard,
    new Set(["/usr/bin/perl"]),
  );

describe("splitByGuard (the niceness test's judge of what runs unguarded)", () => {
  it("a running process whose parent chain reaches the host without a guard is unguarded", () => {
    const found = split([{ pid: 200, ppid: HOST }], { 200: ["/bin/sleep", "9"] });
    expect(found.unguarded.map((proc) => proc.pid)).toEqual([200]);
  });

  it("an agent's child is below the guard", () => {
    const found = split(
      [
        { pid: 200, ppid: HOST },
        { pid: 201, ppid: 200 },
        { pid: 202, ppid: 201 },
      ],
      { 200: ["node", "-e", "guard"], 201: ["codex-acp"], 202: ["bash", "-c", "ls"] },
    );
    expect(found.guards.map((proc) => proc.pid)).toEqual([200]);
    expect(found.belowGuard.map((proc) => proc.pid)).toEqual([201, 202]);
    expect(found.unguarded).toEqual([]);
  });

  it("a process whose guard and agent exited after the snapshot (not yet re-parented) is not judged unguarded", () => {
    // the agent (201) exited, its guard (200) is a zombie the host has not reaped: their child still names 201
    const found = split(
      [
        { pid: 200, ppid: HOST },
        { pid: 201, ppid: 200 },
        { pid: 202, ppid: 201 },
      ],
      { 200: [], 201: undefined, 202: ["bash", "-c", "ls"] },
    );
    expect(found.unguarded).toEqual([]);
  });
});
