import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NATS_PACKAGES, NatsNotInstalledError } from "../../src/store/jetstream/nats-modules.js";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

describe("the NATS client packages", () => {
  it("are optional peer dependencies at the tested version, installed for the tests", () => {
    for (const pkg of NATS_PACKAGES) {
      expect(packageJson.peerDependencies[pkg.name]).toBe(pkg.version);
      expect(packageJson.peerDependenciesMeta[pkg.name]?.optional).toBe(true);
      expect(packageJson.devDependencies[pkg.name]).toBe(pkg.version);
    }
  });

  it("missing, name the package and the command that installs all four", () => {
    const error = new NatsNotInstalledError("@nats-io/kv", new Error("not found"));
    expect(error.message).toContain("@nats-io/kv is not installed");
    expect(error.message).toContain(
      "npm i @nats-io/transport-node@3.4.0 @nats-io/jetstream@3.4.0 @nats-io/kv@3.4.0 @nats-io/obj@3.4.0",
    );
  });
});
