// Where normalization time goes for one source: parse, map, serialise, validate (ms for 200,000 lines).
//   npx tsx bench/breakdown.ts SOURCE

import { RuntimeEventSchema } from "../src/contracts/events.js";
import { EventSerializer } from "../src/kit/event-serializer.js";
import { type MessageText, readTranscriptLine } from "../src/kit/transcript.js";
import { findMapperDefinition } from "../src/mappers/registry.js";
import { repeatedCorpus } from "./fixture-corpus.js";

const source = process.argv[2] ?? "codex-sdk";
const def = findMapperDefinition(source);
if (def === undefined) throw new Error(`unknown source ${source}`);
const lines = repeatedCorpus(def.source, 200_000);
const t = () => Number(process.hrtime.bigint()) / 1e6;
for (let rep = 0; rep < 2; rep++) {
  let a = t();
  for (const l of lines) JSON.stringify(JSON.parse(l));
  const floorMs = t() - a;
  a = t();
  // each entry with its message's source text, as LineNormalizer hands it to the serializer
  const entries = lines.flatMap((l) => {
    const message: MessageText = { msg: undefined, text: "" };
    const entry = readTranscriptLine(l, undefined, message);
    return entry === undefined ? [] : [{ entry, message }];
  });
  const parseMs = t() - a;
  const m = def.create({ sessionId: "bench" });
  a = t();
  const evs = entries.map((e) => m.map(e.entry));
  const mapMs = t() - a;
  const s = new EventSerializer();
  a = t();
  let bytes = 0;
  evs.forEach((es, i) => {
    const { msg, text } = (entries[i] as (typeof entries)[number]).message;
    s.source(msg, text);
    for (const e of es) bytes += s.serialize(e).length;
  });
  const serMs = t() - a;
  a = t();
  for (const es of evs) for (const e of es) RuntimeEventSchema.parse(e);
  const valMs = t() - a;
  const inBytes = lines.reduce((n, l) => n + l.length, 0);
  console.log(source, {
    floorMs: floorMs | 0,
    parseMs: parseMs | 0,
    mapMs: mapMs | 0,
    serMs: serMs | 0,
    valMs: valMs | 0,
    inMB: (inBytes / 1e6) | 0,
    outMB: (bytes / 1e6) | 0,
  });
}
