import { RuntimeEventSchema } from "../contracts/events.js";
import { EventSerializer } from "./event-serializer.js";
import type { RuntimeMapper } from "./mapper.js";
import { type MessageText, overlongLineEntry, readTranscriptLine } from "./transcript.js";

export interface LineNormalizerOptions {
  /** Check every event against the schema; an invalid event throws (a mapper bug, never input). */
  validate?: boolean;
}

/**
 * What `normalize` does per transcript line: read it, map it, serialise each event (raw attached, each native
 * record serialised once). Shared by the CLI and the bench so that the bench times exactly the CLI's work.
 * Safe at any depth: readTranscriptLine turns a line nested past MAX_JSON_DEPTH into a warning before a mapper
 * sees it, and EventSerializer writes an event it cannot serialise as a warning in its place.
 */
export class LineNormalizer {
  readonly #mapper: RuntimeMapper;
  readonly #validate: boolean;
  readonly #serializer = new EventSerializer();
  /** The source text of the line's message, handed to the serializer so it need not serialise the message again. */
  readonly #message: MessageText = { msg: undefined, text: "" };
  #lineNumber = 0;

  constructor(mapper: RuntimeMapper, options: LineNormalizerOptions = {}) {
    this.#mapper = mapper;
    this.#validate = options.validate === true;
  }

  /** Appends the JSON lines of one transcript line's events to `out`; returns how many it appended. */
  line(text: string, out: string[]): number {
    const entry = readTranscriptLine(text, ++this.#lineNumber, this.#message);
    this.#serializer.source(this.#message.msg, this.#message.text);
    if (entry === undefined) return 0;
    return this.#write(this.#mapper.map(entry), out);
  }

  /**
   * A line its reader did not keep because it is longer than `maxBytes` (`head` is its beginning, `bytes` its
   * length): one `runtime.warning` (reason "too-long") with the head as raw. Counts as a line.
   */
  overlongLine(head: string, bytes: number, maxBytes: number, out: string[]): number {
    const entry = overlongLineEntry(head, bytes, maxBytes, ++this.#lineNumber);
    this.#serializer.source(undefined, "");
    return this.#write(this.#mapper.map(entry), out);
  }

  /** The events that end of input produces (see RuntimeMapper.finish). */
  finish(out: string[]): number {
    const count = this.#write(this.#mapper.finish(), out);
    this.#serializer.reset();
    return count;
  }

  #write(events: readonly object[], out: string[]): number {
    for (const event of events) {
      if (this.#validate) RuntimeEventSchema.parse(event);
      out.push(this.#serializer.serialize(event));
    }
    return events.length;
  }
}
