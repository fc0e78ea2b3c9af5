import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "ACP: copilot");
if (driverCase === undefined) throw new Error("no ACP: copilot conformance case");
defineConformanceSuite(driverCase);
