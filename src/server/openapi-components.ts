// the import that adds `.openapi()` to every zod schema: it must run before this module does
import { z } from "@hono/zod-openapi";
import {
  CreateSessionBody,
  ErrorBody,
  EventsPage,
  Health,
  RespondBody,
  SessionDetail,
  SessionList,
  SessionSummary,
  StreamTicket,
  TurnBody,
} from "../api/schemas.js";
import { RuntimeEventSchema } from "../contracts/events.js";
import { ThreadView } from "../projection/thread-view.js";

/*
 * The named schemas of the OpenAPI document (`components.schemas`), each generated from the zod model: a route
 * that answers one of these schemas gets a `$ref` to it, so a generated client has one type per body
 * (`components["schemas"]["RuntimeEvent"]`), not a copy per route.
 */

/**
 * `schema` as the component `name`. Through the prototype: a schema made before @hono/zod-openapi extended zod
 * (the contracts are loaded first wherever the CLI starts) has no `.openapi` of its own.
 */
function named<S extends z.ZodType>(schema: S, name: string): S {
  return z.ZodType.prototype.openapi.call(schema, name) as S;
}

const RuntimeEvent = named(RuntimeEventSchema, "RuntimeEvent");
const Summary = named(SessionSummary, "SessionSummary");
const View = named(ThreadView, "ThreadView");

/** Each body schema of src/api/schemas.ts and its component: the composites built from the named parts. */
const COMPONENTS = new Map<z.ZodType, z.ZodType>([
  [RuntimeEventSchema, RuntimeEvent],
  [ThreadView, View],
  [SessionSummary, Summary],
  [ErrorBody, named(ErrorBody, "Error")],
  [Health, named(Health, "Health")],
  [CreateSessionBody, named(CreateSessionBody, "CreateSessionBody")],
  [TurnBody, named(TurnBody, "TurnBody")],
  [RespondBody, named(RespondBody, "RespondBody")],
  [StreamTicket, named(StreamTicket, "StreamTicket")],
  [SessionList, named(SessionList.extend({ sessions: z.array(Summary) }), "SessionList")],
  [SessionDetail, named(SessionDetail.extend({ session: Summary, view: View }), "SessionDetail")],
  [
    EventsPage,
    named(
      EventsPage.extend({
        events: z.array(RuntimeEvent).describe(EventsPage.shape.events.description ?? ""),
      }),
      "EventsPage",
    ),
  ],
]);

/** The component of `schema` where it has one, else `schema` itself (inlined). */
export function namedComponent<S extends z.ZodType>(schema: S): S {
  return (COMPONENTS.get(schema) ?? schema) as S;
}
