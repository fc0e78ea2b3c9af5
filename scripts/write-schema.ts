// Regenerates schema/runtime-event.schema.json from the zod model: `npx tsx scripts/write-schema.ts`.
import { writeFileSync } from "node:fs";
import { runtimeEventJsonSchema } from "../src/contracts/json-schema.js";

const target = new URL("../schema/runtime-event.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(runtimeEventJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${target.pathname}\n`);
