import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_PACKAGES, installedVersion, untestedAgentVersions } from "../../src/drivers/agent-programs.js";
import { DriverSession } from "../../src/drivers/driver-session.js";
import { CodexSdkMapper } from "../../src/providers/codex-sdk/mapper.js";
import { verifyEvents } from "../../src/verify/index.js";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** A project dir whose node_modules holds `@openai/codex-sdk` at another version than the tested one. */
const project = mkdtempSync(join(tmpdir(), "agent-versions-"));
const fakeSdk = join(project, "node_modules", "@openai", "codex-sdk");
mkdirSync(fakeSdk, { recursive: true });
writeFileSync(join(fakeSdk, "package.json"), JSON.stringify({ name: "@openai/codex-sdk", version: "9.9.9" }));
const base = join(project, "host.js");
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("agent versions: the tested ones are the peer dependencies, another one is a warning", () => {
  it("every SDK and program a driver loads is an optional peer dependency at its tested version", () => {
    for (const key of ["codex", "codexSdk", "claudeSdk", "acpSdk"] as const) {
      const pkg = AGENT_PACKAGES[key];
      expect(packageJson.peerDependencies[pkg.name]).toBe(pkg.version);
      expect(packageJson.peerDependenciesMeta[pkg.name]?.optional).toBe(true);
    }
  });

  it("reads the installed version; the tested install has none untested", () => {
    expect(installedVersion("@openai/codex")).toBe(AGENT_PACKAGES.codex.version);
    expect(installedVersion("@example/not-installed")).toBeUndefined();
    expect(untestedAgentVersions(Object.values(AGENT_PACKAGES))).toEqual([]);
  });

  it("an installed version outside the tested one is one runtime.warning, and the stream stays sound", async () => {
    expect(untestedAgentVersions([AGENT_PACKAGES.codexSdk], base)).toEqual([
      { name: "@openai/codex-sdk", installed: "9.9.9", tested: AGENT_PACKAGES.codexSdk.version },
    ]);
    const session = new DriverSession(new CodexSdkMapper({ sessionId: "ses_versions" }), {
      clock: () => "2026-01-01T00:00:00.000Z",
    });
    session.warnUntestedVersions([AGENT_PACKAGES.codexSdk, AGENT_PACKAGES.codex], base);
    session.terminate({ kind: "stop", message: "done" });
    const events = [];
    for await (const event of session.channel) events.push(event);
    const warnings = events.filter((event) => event.type === "runtime.warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.payload).toMatchObject({
      message: expect.stringContaining("npm i @openai/codex-sdk@0.163.0"),
      detail: { reason: "untested-version", name: "@openai/codex-sdk", installed: "9.9.9" },
    });
    expect(verifyEvents(events)).toEqual([]);
  });
});
