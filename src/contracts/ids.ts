import { z } from "zod";

/** Canonical ids are ours: minted by the mapper kit, never a provider-native id. */
const canonicalId = <const B extends string>(brand: B) => z.string().min(1).describe(brand).brand<B>();

export const EventId = canonicalId("EventId");
export type EventId = z.infer<typeof EventId>;
export const RuntimeSessionId = canonicalId("RuntimeSessionId");
export type RuntimeSessionId = z.infer<typeof RuntimeSessionId>;
export const ThreadId = canonicalId("ThreadId");
export type ThreadId = z.infer<typeof ThreadId>;
export const TurnId = canonicalId("TurnId");
export type TurnId = z.infer<typeof TurnId>;
export const RuntimeItemId = canonicalId("RuntimeItemId");
export type RuntimeItemId = z.infer<typeof RuntimeItemId>;
export const RuntimeRequestId = canonicalId("RuntimeRequestId");
export type RuntimeRequestId = z.infer<typeof RuntimeRequestId>;
export const RuntimeTaskId = canonicalId("RuntimeTaskId");
export type RuntimeTaskId = z.infer<typeof RuntimeTaskId>;

/** Provider-native ids, kept for correlation and debugging only. */
export const ProviderSessionId = canonicalId("ProviderSessionId");
export type ProviderSessionId = z.infer<typeof ProviderSessionId>;
export const ProviderThreadId = canonicalId("ProviderThreadId");
export type ProviderThreadId = z.infer<typeof ProviderThreadId>;
export const ProviderTurnId = canonicalId("ProviderTurnId");
export type ProviderTurnId = z.infer<typeof ProviderTurnId>;
export const ProviderItemId = canonicalId("ProviderItemId");
export type ProviderItemId = z.infer<typeof ProviderItemId>;

export const IsoDateTime = z.string().min(1);
export type IsoDateTime = z.infer<typeof IsoDateTime>;
