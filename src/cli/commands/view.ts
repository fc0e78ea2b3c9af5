import { TimelineRenderer } from "../../view/timeline.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { readEvents } from "../canonical-input.js";
import { type CliIo, EXIT_OK } from "../usage.js";

const HELP = `Usage: provider-runtime view [--color|--no-color] [FILE|-]

Prints a canonical stream as a readable timeline (colour on a terminal).
`;

export async function viewCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    color: { type: "boolean" },
    "no-color": { type: "boolean" },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const color = values["no-color"] ? false : (values.color ?? (io.isTTY && !process.env.NO_COLOR));
  const renderer = new TimelineRenderer({ color });
  for await (const event of readEvents(singleInput(positionals), io.stdin)) {
    for (const line of renderer.render(event)) io.stdout.write(`${line}\n`);
  }
  for (const line of renderer.flush()) io.stdout.write(`${line}\n`);
  return EXIT_OK;
}
