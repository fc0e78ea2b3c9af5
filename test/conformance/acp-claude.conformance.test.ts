import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "ACP: claude-agent-acp");
if (driverCase === undefined) throw new Error("no ACP: claude-agent-acp conformance case");
defineConformanceSuite(driverCase);
