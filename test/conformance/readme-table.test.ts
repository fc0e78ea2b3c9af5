import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { conformanceTable } from "./table.js";

it("the README shows the conformance table the suite asserts (npx tsx scripts/conformance-table.ts --write)", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  expect(readme).toContain(conformanceTable());
});
