import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "Claude SDK");
if (driverCase === undefined) throw new Error("no Claude SDK conformance case");
defineConformanceSuite(driverCase);
