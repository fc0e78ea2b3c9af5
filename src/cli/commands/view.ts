import { LineSink } from "../../node/line-sink.js";
import { TimelineRenderer } from "../../view/timeline.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { readEvents } from "../canonical-input.js";
import { type CliIo, EXIT_FAILURE, EXIT_OK } from "../usage.js";
import { embeddedEventJson, loadStaticPage } from "./static-page.js";

const HELP = `Usage: provider-runtime view [--color|--no-color] [--html] [FILE|-]

Prints a canonical stream as a readable timeline (colour on a terminal).
--html writes the inspector's timeline instead: one self-contained HTML file (script, styles and the events
inline; the events without their raw native records), which loads nothing from the network.
`;

export async function viewCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    color: { type: "boolean" },
    "no-color": { type: "boolean" },
    html: { type: "boolean" },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const file = singleInput(positionals);
  if (values.html) return viewHtml(file, io);
  const color = values["no-color"] ? false : (values.color ?? (io.isTTY && !process.env.NO_COLOR));
  const renderer = new TimelineRenderer({ color });
  for await (const event of readEvents(file, io.stdin)) {
    for (const line of renderer.render(event)) io.stdout.write(`${line}\n`);
  }
  for (const line of renderer.flush()) io.stdout.write(`${line}\n`);
  return EXIT_OK;
}

async function viewHtml(file: string | undefined, io: CliIo): Promise<number> {
  let page: Awaited<ReturnType<typeof loadStaticPage>>;
  try {
    page = await loadStaticPage();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr.write(`view --html: the inspector is not built (npm run build): ${reason}\n`);
    return EXIT_FAILURE;
  }
  // The first event is read before anything is written, so an unreadable file leaves stdout empty.
  const events = readEvents(file, io.stdin)[Symbol.asyncIterator]();
  let next = await events.next();
  const sink = new LineSink(io.stdout);
  await sink.write(page.before);
  for (let first = true; !next.done; first = false, next = await events.next()) {
    const json = embeddedEventJson(next.value);
    await sink.writeLines([first ? json : `,${json}`]);
  }
  await sink.write(page.after);
  await sink.flush();
  return EXIT_OK;
}
