import type { SourceCoverage } from "../../kit/mapper.js";
import { MAPPER_DEFINITIONS } from "../../mappers/registry.js";
import { parseCommandArgs } from "../args.js";
import { type CliIo, EXIT_OK } from "../usage.js";

const HELP = `Usage: provider-runtime coverage [--json]

Lists, per source, each native kind of the pinned provider versions and the canonical events it yields.
`;

export function coverageReport(): { sources: Record<string, SourceCoverage> } {
  const sources: Record<string, SourceCoverage> = {};
  for (const definition of MAPPER_DEFINITIONS) sources[definition.source] = definition.coverage();
  return { sources };
}

export async function coverageCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, { json: { type: "boolean" } });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const report = coverageReport();
  if (values.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return EXIT_OK;
  }
  for (const [source, coverage] of Object.entries(report.sources)) {
    const handled = coverage.kinds.filter((k) => k.yields.length > 0).length;
    io.stdout.write(
      `${source} (${coverage.package} ${coverage.version}): ${handled}/${coverage.kinds.length} kinds handled\n`,
    );
    for (const kind of coverage.kinds) {
      io.stdout.write(
        `  ${kind.group.padEnd(13)} ${kind.kind.padEnd(48)} → ${kind.yields.join(", ") || "(none)"}\n`,
      );
    }
    if (coverage.unhandled.length > 0) io.stdout.write(`  unhandled: ${coverage.unhandled.join(", ")}\n`);
  }
  return EXIT_OK;
}
