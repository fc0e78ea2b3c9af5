import {
  HEADER_EVENT_ID,
  HEADER_FIRST,
  HEADER_LAST,
  HEADER_PART,
  type OutgoingMessage,
} from "./event-codec.js";
import { HEADER_AUTH, type MessageAuth } from "./message-auth.js";

interface HeaderReader {
  get(key: string): string;
}

/** A stored message as the readers see it. */
export interface StoredMessage {
  headers: HeaderReader | undefined;
  data: Uint8Array;
  /** Its stream sequence. */
  seq: number;
}

/** Says whether a message on a session's subject was written by a node with the cluster secret. */
export type MessageCheck = (message: StoredMessage) => boolean;

/** Every message passes: a store opened without a cluster secret (a library user, a single trusted host). */
export const trustEveryMessage: MessageCheck = () => true;

/** The tag an event message carries in `Pr-Auth`: over its subject, its place headers and its body. */
export function eventTag(auth: MessageAuth, subject: string, message: OutgoingMessage): string {
  return auth.tag("event", [
    subject,
    String(message.first),
    message.last === message.first ? "" : String(message.last),
    message.eventId,
    message.parts > 1 ? `${message.part}/${message.parts}` : "",
    message.data,
  ]);
}

/** Whether a stored message carries a good tag for its subject (the headers read as the writer set them). */
export function hasEventTag(auth: MessageAuth, subject: string, message: StoredMessage): boolean {
  const headers = message.headers;
  if (headers === undefined) return false;
  return auth.check(
    "event",
    [
      subject,
      headers.get(HEADER_FIRST),
      headers.get(HEADER_LAST),
      headers.get(HEADER_EVENT_ID),
      headers.get(HEADER_PART),
      message.data,
    ],
    headers.get(HEADER_AUTH),
  );
}
