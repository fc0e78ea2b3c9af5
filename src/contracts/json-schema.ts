import * as z from "zod";
import { RuntimeEventSchema } from "./events.js";

export const RUNTIME_EVENT_SCHEMA_ID = "https://provider-runtime.dev/schema/runtime-event.schema.json";

/** The published JSON Schema of one canonical event (a `oneOf` over the event types). */
export function runtimeEventJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(RuntimeEventSchema, { unrepresentable: "any", io: "output" });
  return { ...schema, $id: RUNTIME_EVENT_SCHEMA_ID, title: "provider-runtime canonical event (V2)" };
}
