import { afterAll, beforeAll, describe, it } from "vitest";
import { type MockModelServer, startMockModel } from "../../src/mock-model/index.js";
import { type McpEchoHttpServer, startMcpEchoHttpServer } from "../support/mcp-echo-http-server.js";
import type { DriverCase } from "./cases.js";
import { CHECKS, CONCEPTS, checkCommonRules, isControlConcept, SCRIPTS } from "./concepts.js";
import { CONTROL_CHECKS, controlScript } from "./control-concepts.js";
import { removeScenarioDirs, runScenario } from "./harness.js";

/** Every concept of the §7 table through one real driver, against the mock model. */
export function defineConformanceSuite(driverCase: DriverCase): void {
  describe(`conformance: ${driverCase.name}`, () => {
    let mock: MockModelServer;
    let mcpHttp: McpEchoHttpServer | undefined;
    beforeAll(async () => {
      mock = await startMockModel(driverCase.mock);
      if (driverCase.control.mcpTransport === "http") mcpHttp = await startMcpEchoHttpServer();
    });
    afterAll(async () => {
      await mcpHttp?.close();
      await mock.close();
      await removeScenarioDirs();
    });
    for (const concept of CONCEPTS) {
      const support = driverCase.support[concept];
      const label = support.supported ? concept : `${concept} (not expressible: ${support.why})`;
      it(label, async () => {
        const before = mock.requests.length;
        const script = isControlConcept(concept)
          ? controlScript(concept, driverCase.control, mcpHttp === undefined ? {} : { mcpUrl: mcpHttp.url })
          : SCRIPTS[concept];
        const run = await runScenario(driverCase.create, mock.baseUrl, script);
        checkCommonRules(run);
        if (!isControlConcept(concept)) CHECKS[concept](run, support);
        else
          CONTROL_CHECKS[concept](
            { ...run, requests: mock.requests.slice(before) },
            support,
            driverCase.control,
          );
      });
    }
  });
}
