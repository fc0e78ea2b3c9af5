import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAgents } from "../../src/drivers/index.js";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";

let mock: MockModelServer;
beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(() => mock.close());

describe("listAgents", () => {
  it("lists every driver and known ACP agent, installed at the tested version, without starting anything", async () => {
    const agents = await listAgents();
    expect(agents.map((a) => a.agent ?? a.provider)).toEqual([
      "codex",
      "codex-sdk",
      "claude",
      "cursor",
      "claude-agent-acp",
      "codex-acp",
      "opencode",
      "copilot",
    ]);
    for (const agent of agents.filter((a) => a.provider !== "cursor")) {
      expect(agent).toMatchObject({ installed: true, version: agent.testedVersion });
      expect(agent.capabilities.models).toBeUndefined();
    }
    expect(agents.find((a) => a.provider === "codex-sdk")?.capabilities).toMatchObject({
      steer: false,
      queue: true,
    });
  });

  it("probe: each installed agent started for a moment reports its models and modes", async () => {
    const agents = await listAgents({ probe: true, modelBaseUrl: mock.baseUrl });
    const of = (name: string) => agents.find((a) => (a.agent ?? a.provider) === name)?.capabilities;
    expect(of("codex")?.models?.some((model) => model.default === true)).toBe(true);
    expect(of("claude")?.models?.map((model) => model.id)).toContain("haiku");
    expect(of("claude-agent-acp")?.modes?.map((mode) => mode.id)).toEqual(
      expect.arrayContaining(["default", "acceptEdits", "plan"]),
    );
    expect(of("codex-acp")?.models?.length ?? 0).toBeGreaterThan(0);
  }, 120_000);
});
