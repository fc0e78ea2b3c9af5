import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "ACP: codex-acp");
if (driverCase === undefined) throw new Error("no ACP: codex-acp conformance case");
defineConformanceSuite(driverCase);
