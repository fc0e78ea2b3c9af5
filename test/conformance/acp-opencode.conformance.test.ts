import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "ACP: opencode");
if (driverCase === undefined) throw new Error("no ACP: opencode conformance case");
defineConformanceSuite(driverCase);
