import { ThreadProjector } from "../../projection/reducer.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { readEvents } from "../canonical-input.js";
import { type CliIo, EXIT_OK } from "../usage.js";

const HELP = `Usage: provider-runtime project [FILE|-]

Folds a canonical stream into the thread view (turns, items with their text and output, requests and decisions,
plan, diff, token usage, session and thread state) and prints it as JSON.
`;

export async function projectCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {});
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const projector = new ThreadProjector();
  for await (const event of readEvents(singleInput(positionals), io.stdin)) projector.apply(event);
  io.stdout.write(`${JSON.stringify(projector.view, null, 2)}\n`);
  return EXIT_OK;
}
