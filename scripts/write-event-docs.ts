// Regenerates docs/events.md from the zod model and the mappers' coverage: `npx tsx scripts/write-event-docs.ts`.
import { mkdirSync, writeFileSync } from "node:fs";
import { eventDocsInput, renderEventDocs } from "./event-docs.js";

const target = new URL("../docs/events.md", import.meta.url);
mkdirSync(new URL("./", target), { recursive: true });
writeFileSync(target, renderEventDocs(eventDocsInput()));
process.stdout.write(`wrote ${target.pathname}\n`);
