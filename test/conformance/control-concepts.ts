import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { UnsupportedError } from "../../src/contracts/driver.js";
import type { RuntimeEvent } from "../../src/contracts/events.js";
import {
  HOLD_RELEASE_FILE,
  imagePartData,
  MCP_ECHO_TEXT,
  type MockRequestRecord,
  requestImageParts,
} from "../../src/mock-model/index.js";
import type { ScenarioRun, ScenarioScript } from "./harness.js";

/**
 * The command surface's rows of the conformance table (DESIGN.md §11): each through the real driver against the
 * mock, whose request log proves what reached the model.
 */
export const CONTROL_CONCEPTS = [
  "attachment",
  "set model",
  "set mode",
  "steer",
  "queue",
  "MCP tool call",
] as const;
export type ControlConcept = (typeof CONTROL_CONCEPTS)[number];

/**
 * Per driver: a model and a mode it offers, and what the next model request then says. The evidence is left out
 * only where the agent cannot serve the row (its support says why); a supported row without it fails.
 */
export interface ControlFacts {
  model: string;
  requestModel?: RegExp;
  mode: string;
  /** Absent from the model request before the mode change, present in the one after it. */
  modeEvidence?: RegExp;
  /** How the MCP row gives the echo server: `stdio` (default) or `http` for agents that drop stdio ones. */
  mcpTransport?: "stdio" | "http";
  /** Whether a `mock:shell` turn waits for the host (exec never asks: the hold scenario keeps its turn running). */
  asks: boolean;
}

/** A run's model requests (the suite fills this from the mock's log). */
export type ControlRun = ScenarioRun & { requests: MockRequestRecord[] };

/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const MCP_SERVER = {
  name: "echo",
  command: process.execPath,
  args: [fileURLToPath(new URL("../support/mcp-echo-server.mjs", import.meta.url))],
};

/** What the suite started for the rows: the echo MCP server over HTTP, for a driver whose row needs it. */
export interface ControlEnv {
  mcpUrl?: string;
}
const STEERED = "mock:text steered words";
const QUEUED = "mock:text queued words";

export function controlScript(
  concept: ControlConcept,
  facts: ControlFacts,
  env: ControlEnv = {},
): ScenarioScript {
  // an agent that asks holds the turn at its approval; exec runs the hold scenario's command until released
  const running = facts.asks ? "mock:shell keep running" : "mock:hold keep running";
  const release = (cwd: string) =>
    facts.asks ? Promise.resolve() : writeFile(join(cwd, HOLD_RELEASE_FILE), "");
  switch (concept) {
    case "attachment":
      return {
        prompts: ["mock:text look at the image"],
        attachments: [{ type: "image", mediaType: "image/png", data: PNG }],
      };
    case "set model":
      return { prompts: ["mock:text after set model"], configure: { model: facts.model } };
    case "set mode":
      return {
        prompts: ["mock:text before set mode", "mock:text after set mode"],
        configure: { mode: facts.mode },
        configureBefore: 1,
      };
    case "steer":
      return {
        prompts: [running],
        whileRunning: (driver, cwd) =>
          driver.sendTurn({ text: STEERED, delivery: "steer" }).finally(() => release(cwd)),
      };
    case "queue":
      return {
        prompts: [running],
        whileRunning: (driver, cwd) =>
          driver.sendTurn({ text: QUEUED, delivery: "queue" }).finally(() => release(cwd)),
        extraTurns: 1,
      };
    case "MCP tool call": {
      if (facts.mcpTransport !== "http")
        return { prompts: ["mock:mcp call the echo tool"], driverOptions: { mcpServers: [MCP_SERVER] } };
      if (env.mcpUrl === undefined) throw new Error("the MCP row over HTTP needs the suite's echo server");
      return {
        prompts: ["mock:mcp call the echo tool"],
        driverOptions: { mcpServers: [{ name: MCP_SERVER.name, url: env.mcpUrl }] },
      };
    }
  }
}

const withText = (run: ControlRun, text: string) =>
  run.requests.filter((r) => r.body !== undefined && JSON.stringify(r.body).includes(text));
/** The turn's first model request (later ones repeat the history; side requests have no tools). */
const turnRequest = (run: ControlRun, text: string) =>
  withText(run, text).find((r) => r.scenario !== "side-request");
const userTurn = (events: readonly RuntimeEvent[], text: string) =>
  events.find(
    (e) =>
      e.type === "item.completed" &&
      e.payload.itemType === "user_message" &&
      JSON.stringify(e.payload.details ?? {}).includes(text),
  )?.turnId;
const configured = (run: ControlRun) =>
  run.events.flatMap((e) => (e.type === "session.configured" ? [e.payload.config] : []));

type Support = { supported: true } | { supported: false; why: string };

/** A setting the agent cannot change: `configure` says so, nothing is announced, the turn still runs. */
function expectUnsupported(run: ControlRun, setting: "model" | "mode"): void {
  expect(run.configureError).toBeInstanceOf(UnsupportedError);
  expect(configured(run).filter((config) => Object.keys(config).length === 1 && setting in config)).toEqual(
    [],
  );
  expect(run.view.turns.length).toBeGreaterThan(0);
  expect(run.view.turns.filter((t) => t.state !== "completed")).toEqual([]);
}

export const CONTROL_CHECKS: Record<
  ControlConcept,
  (run: ControlRun, support: Support, facts: ControlFacts) => void
> = {
  attachment(run) {
    const images = withText(run, "look at the image").flatMap((r) => requestImageParts(r.body));
    expect(images.map(imagePartData)).toContain(PNG);
    expect(run.view.turns.map((t) => t.state)).toEqual(["completed"]);
  },
  "set model"(run, support, facts) {
    if (!support.supported) return expectUnsupported(run, "model");
    expect(configured(run)).toContainEqual({ model: facts.model });
    const body = turnRequest(run, "after set model")?.body as { model?: string } | undefined;
    expect(facts.requestModel, "a supported set model row needs requestModel").toBeInstanceOf(RegExp);
    expect(body?.model).toMatch(facts.requestModel ?? /$^/);
  },
  "set mode"(run, support, facts) {
    if (!support.supported) return expectUnsupported(run, "mode");
    expect(configured(run)).toContainEqual({ mode: expect.objectContaining({ id: expect.any(String) }) });
    expect(facts.modeEvidence, "a supported set mode row needs modeEvidence").toBeInstanceOf(RegExp);
    const evidence = facts.modeEvidence ?? /$^/;
    const before = turnRequest(run, "before set mode");
    expect(before, "a model request before the mode change").toBeDefined();
    expect(evidence.test(JSON.stringify(before?.body ?? {})), `${evidence} before the mode change`).toBe(
      false,
    );
    expect(
      evidence.test(JSON.stringify(turnRequest(run, "after set mode")?.body ?? {})),
      `${evidence} after it`,
    ).toBe(true);
  },
  steer(run, support) {
    if (!support.supported) {
      expect(run.whileRunningError).toBeInstanceOf(UnsupportedError);
      expect(withText(run, "steered words")).toEqual([]);
      return;
    }
    expect(run.whileRunningError).toBeUndefined();
    expect(userTurn(run.events, "steered words")).toBe(userTurn(run.events, "keep running"));
    expect(withText(run, "steered words").length).toBeGreaterThan(0);
    expect(run.view.turns).toHaveLength(1);
  },
  queue(run) {
    expect(run.whileRunningError).toBeUndefined();
    expect(run.view.turns.map((t) => t.state)).toEqual(["completed", "completed"]);
    const first = userTurn(run.events, "keep running");
    const second = userTurn(run.events, "queued words");
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const firstEnd = run.events.findIndex((e) => e.type === "turn.completed" && e.turnId === first);
    const secondStart = run.events.findIndex((e) => e.type === "turn.started" && e.turnId === second);
    expect(secondStart).toBeGreaterThan(firstEnd);
    expect(withText(run, "queued words").length).toBeGreaterThan(0);
  },
  "MCP tool call"(run, support) {
    const calls = run.view.items.filter((item) => item.itemType === "mcp_tool_call");
    if (!support.supported) {
      expect(calls).toEqual([]);
      return;
    }
    expect(calls.length).toBeGreaterThanOrEqual(1);
    const details = calls[0]?.itemType === "mcp_tool_call" ? calls[0].details : undefined;
    expect(details).toMatchObject({ server: "echo", tool: "mock_echo" });
    expect(withText(run, `mcp-echo: ${MCP_ECHO_TEXT}`).length).toBeGreaterThan(0);
  },
};
