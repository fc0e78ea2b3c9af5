import * as z from "zod";
import { RuntimeEventEnvelope } from "./envelope.js";
import { EVENT_TYPE_DESCRIPTIONS } from "./event-descriptions.js";
import { RUNTIME_EVENT_TYPES, type RuntimeEventType } from "./event-types.js";
import { type RuntimeEventPayloadByType, RuntimeEventPayloadSchemas } from "./payloads.js";

type IdField = "threadId" | "turnId" | "itemId" | "requestId";

/** The envelope ids an event type always carries: required in the schema and in the types. */
export const REQUIRED_IDS = {
  "thread.started": ["threadId"],
  "turn.started": ["turnId"],
  "turn.completed": ["turnId"],
  "turn.aborted": ["turnId"],
  "item.started": ["itemId"],
  "item.updated": ["itemId"],
  "item.completed": ["itemId"],
  "content.delta": ["itemId"],
  "request.opened": ["requestId"],
  "request.resolved": ["requestId"],
  "user-input.requested": ["requestId"],
  "user-input.resolved": ["requestId"],
} as const satisfies Partial<Record<RuntimeEventType, readonly IdField[]>>;
/** The envelope ids each event type must carry (`REQUIRED_IDS` as a type). */
export type RequiredIds = typeof REQUIRED_IDS;

export type RequiredIdsOf<T extends RuntimeEventType> = T extends keyof RequiredIds
  ? { [K in RequiredIds[T][number]]-?: NonNullable<RuntimeEventEnvelope[K]> }
  : unknown;

export type RuntimeEventOf<T extends RuntimeEventType> = RuntimeEventEnvelope &
  RequiredIdsOf<T> & {
    type: T;
    payload: RuntimeEventPayloadByType[T];
  };

/** The canonical V2 event: a discriminated union on `type`. */
export type RuntimeEvent = { [T in RuntimeEventType]: RuntimeEventOf<T> }[RuntimeEventType];

const requiredIdShape = (type: RuntimeEventType) => {
  const fields: readonly IdField[] =
    (REQUIRED_IDS as Partial<Record<RuntimeEventType, readonly IdField[]>>)[type] ?? [];
  return Object.fromEntries(fields.map((field) => [field, RuntimeEventEnvelope.shape[field].unwrap()]));
};

const eventSchemaOf = (type: RuntimeEventType) =>
  RuntimeEventEnvelope.extend({
    ...requiredIdShape(type),
    type: z.literal(type).describe(EVENT_TYPE_DESCRIPTIONS[type]),
    payload: RuntimeEventPayloadSchemas[type],
  }).describe(EVENT_TYPE_DESCRIPTIONS[type]);

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
