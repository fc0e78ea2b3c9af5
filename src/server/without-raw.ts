import type { RuntimeEvent } from "../contracts/events.js";
import type { ThreadView } from "../projection/thread-view.js";

/** `raw=0`: an event without its native record (a copy; the store keeps the record). */
export function withoutRaw(event: RuntimeEvent): RuntimeEvent {
  if (event.raw === undefined) return event;
  const { raw: _raw, ...rest } = event;
  return rest as RuntimeEvent;
}

/** `raw=0` on a session's view: its items without their native item (`data`). */
export function viewWithoutRaw(view: ThreadView): ThreadView {
  return {
    ...view,
    items: view.items.map((item) => {
      if (item.data === undefined) return item;
      const { data: _data, ...rest } = item;
      return rest as typeof item;
    }),
  };
}
