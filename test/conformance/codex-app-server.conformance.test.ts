import { DRIVER_CASES } from "./cases.js";
import { defineConformanceSuite } from "./suite.js";

const driverCase = DRIVER_CASES.find((c) => c.name === "Codex app server");
if (driverCase === undefined) throw new Error("no Codex app server conformance case");
defineConformanceSuite(driverCase);
