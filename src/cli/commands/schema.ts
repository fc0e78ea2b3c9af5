import { runtimeEventJsonSchema } from "../../contracts/json-schema.js";
import { parseCommandArgs } from "../args.js";
import { type CliIo, EXIT_OK } from "../usage.js";

export async function schemaCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, {});
  if (values.help) {
    io.stdout.write("Usage: provider-runtime schema\n\nPrints the JSON Schema of one canonical event.\n");
    return EXIT_OK;
  }
  io.stdout.write(`${JSON.stringify(runtimeEventJsonSchema(), null, 2)}\n`);
  return EXIT_OK;
}
