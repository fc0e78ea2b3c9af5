import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  type AssertNever,
  EXTENSION_EVENT_TYPES,
  type MissingPayloadTypes,
  RUNTIME_EVENT_TYPES,
  type RuntimeEventType,
  SPEC_EVENT_TYPES,
} from "../../src/contracts/event-types.js";
import { RuntimeEventSchema } from "../../src/contracts/events.js";
import { runtimeEventJsonSchema } from "../../src/contracts/json-schema.js";
import { SAMPLE_PAYLOADS, sampleEvent } from "../support/sample-events.js";

// Compile-time (`npm run typecheck`): event-types.ts's own check is not vacuous.
// @ts-expect-error "extra.type" has no payload schema, so the check rejects it
type _UnmappedTypeIsCaught = AssertNever<MissingPayloadTypes<RuntimeEventType | "extra.type">>;

const jsonSchema = runtimeEventJsonSchema();
const ajv = new Ajv2020.default({ strict: false, allErrors: false });
const validate = ajv.compile(jsonSchema);

type Branch = { properties: { type: { const: string }; payload: { required?: string[] } } };
const branches = (jsonSchema.oneOf as Branch[]) ?? [];
const requiredPayloadFields = (type: string) =>
  branches.find((b) => b.properties.type.const === type)?.properties.payload.required ?? [];

describe("canonical model", () => {
  it("has the 45 spec types plus provider.event", () => {
    expect(SPEC_EVENT_TYPES).toHaveLength(45);
    expect(new Set(RUNTIME_EVENT_TYPES).size).toBe(46);
    expect(EXTENSION_EVENT_TYPES).toContain("provider.event");
  });

  it("the JSON Schema has one branch per type", () => {
    expect(branches.map((b) => b.properties.type.const).sort()).toEqual([...RUNTIME_EVENT_TYPES].sort());
  });

  it.each(RUNTIME_EVENT_TYPES)("%s: accepted by zod and the JSON Schema", (type) => {
    const event = sampleEvent(type);
    expect(RuntimeEventSchema.safeParse(event).success).toBe(true);
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(RUNTIME_EVENT_TYPES)(
    "%s: rejected without a required payload field (or without payload)",
    (type) => {
      const required = requiredPayloadFields(type);
      const broken: Array<Record<string, unknown>> = [];
      if (required.length === 0) {
        const { payload: _dropped, ...withoutPayload } = sampleEvent(type);
        broken.push(withoutPayload);
      }
      for (const field of required) {
        const payload = { ...(SAMPLE_PAYLOADS[type] as Record<string, unknown>) };
        delete payload[field];
        broken.push({ ...sampleEvent(type), payload });
      }
      expect(broken.length).toBeGreaterThan(0);
      for (const event of broken) {
        expect(RuntimeEventSchema.safeParse(event).success).toBe(false);
        expect(validate(event)).toBe(false);
      }
    },
  );

  it("rejects an unknown type, a missing envelope field and a bad enum", () => {
    const good = sampleEvent("content.delta");
    for (const bad of [
      { ...good, type: "content.deltas" },
      { ...good, sequence: 0 },
      { ...good, eventId: undefined },
      { ...good, payload: { streamKind: "nope", delta: "x" } },
    ]) {
      expect(RuntimeEventSchema.safeParse(bad).success).toBe(false);
      expect(validate(JSON.parse(JSON.stringify(bad)))).toBe(false);
    }
  });

  it("the published schema file is up to date (npx tsx scripts/write-schema.ts)", () => {
    const file = JSON.parse(
      readFileSync(new URL("../../schema/runtime-event.schema.json", import.meta.url), "utf8"),
    );
    expect(file).toEqual(jsonSchema);
  });
});
