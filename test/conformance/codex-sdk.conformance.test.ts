import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "Codex SDK (exec)");
if (driverCase === undefined) throw new Error("no Codex SDK conformance case");
defineConformanceSuite(driverCase);
