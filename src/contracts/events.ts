import { z } from "zod";
import { RuntimeEventEnvelope } from "./envelope.js";
import { RUNTIME_EVENT_TYPES, type RuntimeEventType } from "./event-types.js";
import { type RuntimeEventPayloadByType, RuntimeEventPayloadSchemas } from "./payloads.js";

export type RuntimeEventOf<T extends RuntimeEventType> = RuntimeEventEnvelope & {
  type: T;
  payload: RuntimeEventPayloadByType[T];
};

/** The canonical V2 event: a discriminated union on `type`. */
export type RuntimeEvent = { [T in RuntimeEventType]: RuntimeEventOf<T> }[RuntimeEventType];

const eventSchemaOf = (type: RuntimeEventType) =>
  RuntimeEventEnvelope.extend({ type: z.literal(type), payload: RuntimeEventPayloadSchemas[type] });

type EventSchema = ReturnType<typeof eventSchemaOf>;
const [firstSchema, ...otherSchemas] = RUNTIME_EVENT_TYPES.map(eventSchemaOf) as [
  EventSchema,
  ...EventSchema[],
];

export const RuntimeEventSchema: z.ZodType<RuntimeEvent> = z.discriminatedUnion("type", [
  firstSchema,
  ...otherSchemas,
]) as unknown as z.ZodType<RuntimeEvent>;

export function isRuntimeEventType(value: unknown): value is RuntimeEventType {
  return typeof value === "string" && (RUNTIME_EVENT_TYPES as readonly string[]).includes(value);
}
