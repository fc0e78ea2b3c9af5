import { useContext, useState } from "preact/hooks";
import type { RuntimeEvent } from "../../../src/contracts/events.js";
import { EventLoaderContext } from "../event-loader.js";
import { printJson } from "../format.js";

type Loaded = { sequence: number; event: RuntimeEvent | undefined };

/** A "Raw" disclosure: opened, it fetches the events by sequence and shows each one's native record. */
export function RawEvents({
  sequences,
  label = "Raw events",
}: {
  sequences: readonly number[];
  label?: string;
}) {
  const load = useContext(EventLoaderContext);
  const [loaded, setLoaded] = useState<Loaded[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  if (load === undefined || sequences.length === 0) return null;
  const open = async () => {
    if (loaded !== undefined) return;
    try {
      const list: Loaded[] = [];
      for (const sequence of sequences) list.push({ sequence, event: await load(sequence) });
      setLoaded(list);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <details
      class="raw-events"
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open) void open();
      }}
    >
      <summary>{label}</summary>
      {error && <p class="error-text">{error}</p>}
      {loaded === undefined && error === undefined && <p class="meta">Loading…</p>}
      {loaded?.map(({ sequence, event }) => (
        <section key={sequence} class="raw-event" data-raw-sequence={sequence}>
          <h4>
            #{sequence} {event?.type ?? "(not found)"}
            {event?.raw?.source && <span class="meta"> · {event.raw.source}</span>}
          </h4>
          {event?.raw !== undefined ? (
            <pre class="raw-record">{printJson(event.raw.payload ?? event.raw, 32_000)}</pre>
          ) : (
            <p class="meta">No native record: the runtime made this event itself.</p>
          )}
          <details>
            <summary>Canonical event</summary>
            <pre>{printJson({ ...event, raw: undefined }, 32_000)}</pre>
          </details>
        </section>
      ))}
    </details>
  );
}
