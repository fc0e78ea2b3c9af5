import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { agentEnv } from "../../src/drivers/agent-env.js";
import {
  AGENT_PACKAGES,
  AgentNotInstalledError,
  codexCommand,
  codexSdkBinary,
  findPackageDir,
  importAgentSdk,
  requirePackageDir,
} from "../../src/drivers/agent-programs.js";

const devDependencies = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;

describe("agent programs: one lookup, actionable when missing", () => {
  it("the tested versions are the devDependencies", () => {
    for (const pkg of Object.values(AGENT_PACKAGES)) expect(devDependencies[pkg.name]).toBe(pkg.version);
  });

  it("finds the installed programs (also a package without ./package.json in its exports)", () => {
    expect(codexCommand()[1]).toMatch(/@openai\/codex\/bin\/codex\.js$/);
    expect(codexCommand("/opt/codex")).toEqual(["/opt/codex"]);
    expect(codexSdkBinary().path).toMatch(
      /codex-sdk\/node_modules\/@openai\/codex-linux-[a-z0-9]+\/vendor\//,
    );
  });

  it("a missing package names itself, the tested version and the install command", async () => {
    expect(findPackageDir("@example/not-installed")).toBeUndefined();
    expect(() => requirePackageDir({ name: "@example/not-installed", version: "1.2.3" })).toThrow(
      "@example/not-installed is not installed; provider-runtime is tested with @example/not-installed 1.2.3: " +
        "npm i @example/not-installed@1.2.3",
    );
    const missing = Object.assign(new Error("Cannot find package '@agentclientprotocol/sdk'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const failing = importAgentSdk(AGENT_PACKAGES.acpSdk, () => Promise.reject(missing));
    await expect(failing).rejects.toBeInstanceOf(AgentNotInstalledError);
    await expect(failing).rejects.toThrow("npm i @agentclientprotocol/sdk@2.4.0");
  });
});

describe("agent env: an allowlist, and nothing of the host's credentials with a mock", () => {
  const host = {
    PATH: "/bin",
    HOME: "/home/u",
    LC_ALL: "C",
    HTTPS_PROXY: "http://proxy:3128",
    OPENAI_API_KEY: "sk-o",
    CODEX_HOME: "/home/u/.codex",
    ANTHROPIC_API_KEY: "sk-a",
    CLAUDE_CONFIG_DIR: "/home/u/.claude",
    AWS_SECRET_ACCESS_KEY: "aws",
    GITHUB_TOKEN: "ghp",
    NPM_TOKEN: "npm",
  };

  it("a real run gets the basics, the network settings and its own provider's variables only", () => {
    expect(Object.keys(agentEnv({ credentials: "codex", mock: false, host })).sort()).toEqual(
      ["CODEX_HOME", "HOME", "HTTPS_PROXY", "LC_ALL", "OPENAI_API_KEY", "PATH"].sort(),
    );
    expect(Object.keys(agentEnv({ credentials: "claude", mock: false, host })).sort()).toEqual(
      ["ANTHROPIC_API_KEY", "CLAUDE_CONFIG_DIR", "HOME", "HTTPS_PROXY", "LC_ALL", "PATH"].sort(),
    );
    const bedrock = agentEnv({
      credentials: "claude",
      mock: false,
      host: { ...host, CLAUDE_CODE_USE_BEDROCK: "1" },
    });
    expect(bedrock.AWS_SECRET_ACCESS_KEY).toBe("aws");
  });

  it("a mock run gets the basics only, then the driver's own and the host's explicit env", () => {
    const env = agentEnv({
      credentials: "codex",
      mock: true,
      host,
      own: { MOCK_API_KEY: "m", HOME: "/tmp/s" },
      extra: { GITHUB_TOKEN: "explicit" },
    });
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/tmp/s",
      LC_ALL: "C",
      MOCK_API_KEY: "m",
      GITHUB_TOKEN: "explicit",
    });
  });
});
