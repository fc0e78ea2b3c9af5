import { DRIVER_CASES } from "./cases.js";
import { CONCEPTS } from "./concepts.js";

export const TABLE_START = "<!-- conformance-table:start -->";
export const TABLE_END = "<!-- conformance-table:end -->";

/**
 * The concept × provider table of the conformance suite, from the same declarations the suite asserts:
 * ✅ the concept is checked in the canonical stream; — it is not expressible there, and the suite checks it is absent.
 */
export function conformanceTable(): string {
  const header = `| concept | ${DRIVER_CASES.map((c) => c.name).join(" | ")} |`;
  const rule = `|---|${DRIVER_CASES.map(() => "---").join("|")}|`;
  const notes: string[] = [];
  const rows = CONCEPTS.map((concept) => {
    const cells = DRIVER_CASES.map((driverCase) => {
      const support = driverCase.support[concept];
      if (support.supported) {
        const absent = Object.entries(support.absent ?? {}).map(([field, why]) => `no ${field}: ${why}`);
        const notes = [support.note, ...absent].filter((note) => note !== undefined);
        return notes.length > 0 ? `✅ (${notes.join("; ")})` : "✅";
      }
      let index = notes.indexOf(support.why);
      if (index < 0) index = notes.push(support.why) - 1;
      return `— [${index + 1}]`;
    });
    return `| ${concept} | ${cells.join(" | ")} |`;
  });
  const footnotes = notes.map((why, index) => `[${index + 1}] ${why}.`);
  return [TABLE_START, header, rule, ...rows, "", ...footnotes, TABLE_END].join("\n");
}
