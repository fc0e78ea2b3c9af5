import type { EventSourceMessage } from "eventsource-parser";
import type { RuntimeEvent } from "../contracts/events.js";
import { RemoteProtocolError } from "./errors.js";

/**
 * One SSE message as a canonical event of `sessionId`. The server stores only events its drivers emitted, so
 * this checks the envelope the ordering relies on (type, sequence, session) rather than every payload; anything
 * else is a RemoteProtocolError carrying the message's start, never dropped.
 */
export function eventOfMessage(route: string, sessionId: string, message: EventSourceMessage): RuntimeEvent {
  if (message.event !== undefined && message.event !== "message")
    throw new RemoteProtocolError(route, `an SSE message of event type "${message.event}"`, message.data);
  let value: unknown;
  try {
    value = JSON.parse(message.data);
  } catch {
    throw new RemoteProtocolError(route, "an SSE message whose data is not JSON", message.data);
  }
  return checkedEvent(route, sessionId, value, () => message.data);
}

/** A JSON value as an event of `sessionId`, its envelope checked; `text` gives the offending body for errors. */
export function checkedEvent(
  route: string,
  sessionId: string,
  value: unknown,
  text: () => string,
): RuntimeEvent {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new RemoteProtocolError(route, "a message that is not an event object", text());
  const event = value as { type?: unknown; sequence?: unknown; sessionId?: unknown };
  if (
    typeof event.type !== "string" ||
    !Number.isSafeInteger(event.sequence) ||
    (event.sequence as number) < 1
  )
    throw new RemoteProtocolError(route, "an event without a type or a positive sequence", text());
  if (event.sessionId !== sessionId)
    throw new RemoteProtocolError(route, `an event of another session (${String(event.sessionId)})`, text());
  return value as RuntimeEvent;
}
