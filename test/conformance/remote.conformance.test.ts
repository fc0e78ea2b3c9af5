import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteClient, type RemoteDriverOptions } from "../../src/client/index.js";
import type { DriverProvider } from "../../src/contracts/driver.js";
import { ServeProcess } from "../server/support/serve-process.js";
import { DRIVER_CASES } from "./cases.js";
import { type BaseConcept, CHECKS, checkCommonRules, SCRIPTS } from "./concepts.js";
import { removeScenarioDirs, runScenario } from "./harness.js";

/**
 * The conformance suite through a real `serve --mock` process and RemoteSession: one scenario per provider (the
 * approval round trip, which crosses every route a host uses), asserting what the in-process suite asserts for it,
 * plus that the server's stored stream is exactly what the client delivered.
 */

interface RemoteCase {
  /** The in-process case whose support table applies. */
  name: string;
  provider: DriverProvider;
  body?: RemoteDriverOptions;
}

const TOKEN = "test-token-0123456789";
const CONCEPT: BaseConcept = "shell with approval";
const REMOTE_CASES: RemoteCase[] = [
  { name: "Codex app server", provider: "codex" },
  { name: "Codex SDK (exec)", provider: "codex-sdk" },
  { name: "Claude SDK", provider: "claude" },
  { name: "ACP: claude-agent-acp", provider: "acp", body: { agent: ["claude-agent-acp"] } },
  { name: "ACP: codex-acp", provider: "acp", body: { agent: ["codex-acp"] } },
];

describe(`conformance through serve + RemoteSession: ${CONCEPT}`, () => {
  let serve: ServeProcess;
  let client: RemoteClient;
  beforeAll(async () => {
    // rooted in the temp dir, where runScenario makes each scenario's cwd
    serve = await ServeProcess.start({ token: TOKEN, extra: ["--mock", "--root", tmpdir()] });
    client = new RemoteClient({ baseUrl: serve.url, token: TOKEN });
  });
  afterAll(async () => {
    await serve?.stop();
    ServeProcess.removeDirs();
    await removeScenarioDirs();
  });

  for (const remote of REMOTE_CASES) {
    it(remote.name, async () => {
      const driverCase = DRIVER_CASES.find((c) => c.name === remote.name);
      if (driverCase === undefined) throw new Error(`no conformance case ${remote.name}`);
      const run = await runScenario(
        (options) => client.createDriver(remote.provider, { ...remote.body, cwd: options.cwd }),
        serve.url,
        SCRIPTS[CONCEPT],
      );
      expect(run.apiErrors).toEqual([]);
      checkCommonRules(run);
      CHECKS[CONCEPT](run, driverCase.support[CONCEPT]);
      const sessionId = run.events[0]?.sessionId ?? "";
      const stored = [];
      for await (const event of client.readEvents(sessionId)) stored.push(event);
      expect(stored).toEqual(run.events);
    });
  }
});
