import { StreamVerifier } from "../../verify/stream-verifier.js";
import { formatViolation } from "../../verify/violations.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { readCanonical } from "../canonical-input.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK } from "../usage.js";

const HELP = `Usage: provider-runtime verify [FILE|-]

Checks a canonical JSONL stream: schema validity and lifecycle rules (sequence gaps, ids used before opened,
deltas after completion, requests resolved twice, turns open at session exit). Exit 0 when sound, else 1 with one
violation per line.
`;

export async function verifyCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {});
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const verifier = new StreamVerifier();
  let violations = 0;
  for await (const line of readCanonical(singleInput(positionals), io.stdin)) {
    const found = line.kind === "event" ? verifier.check(line.value) : [verifier.unparsable(line.reason)];
    for (const violation of found) {
      violations++;
      io.stdout.write(`${formatViolation(violation)}\n`);
    }
  }
  for (const violation of verifier.finish()) {
    violations++;
    io.stdout.write(`${formatViolation(violation)}\n`);
  }
  if (verifier.eventCount === 0 && violations === 0) {
    io.stdout.write("no events\n");
    return EXIT_FAILURE;
  }
  io.stderr.write(`${verifier.eventCount} events, ${violations} violations\n`);
  return violations === 0 ? EXIT_OK : EXIT_FAILURE;
}
