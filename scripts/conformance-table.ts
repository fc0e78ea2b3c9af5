// Prints the conformance table (concept × provider); with --write, replaces it in README.md.
import { readFileSync, writeFileSync } from "node:fs";
import { conformanceTable, TABLE_END, TABLE_START } from "../test/conformance/table.js";

const table = conformanceTable();
if (!process.argv.includes("--write")) {
  process.stdout.write(`${table}\n`);
} else {
  const file = new URL("../README.md", import.meta.url);
  const readme = readFileSync(file, "utf8");
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < 0) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} markers`);
  writeFileSync(file, readme.slice(0, start) + table + readme.slice(end + TABLE_END.length));
  process.stdout.write("README.md: conformance table updated\n");
}
