import { createContext } from "preact";
import type { RuntimeEvent } from "../../src/contracts/events.js";

/**
 * Where a view finds a whole event (its `raw` native record included) by sequence: the server for the live page,
 * the embedded stream for a static one. The page keeps no event itself.
 */
export type EventLoader = (sequence: number) => Promise<RuntimeEvent | undefined>;

export const EventLoaderContext = createContext<EventLoader | undefined>(undefined);
