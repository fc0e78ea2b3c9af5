import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type * as z from "zod";
import { ErrorBody } from "../api/schemas.js";
import { namedComponent } from "./openapi-components.js";

/**
 * How every route of `serve` is declared, so that its OpenAPI document is complete by construction: a route has
 * an `operationId` and a summary (the types say so), and every body goes through `json()`, which names the
 * project's schemas as components (`$ref`) and leaves no response without a schema.
 * test/server/openapi-document.test.ts fails for any route that slips past this.
 */

/** A JSON body of `schema`: the named component where the schema has one. */
export function json<S extends z.ZodType>(schema: S, description: string) {
  return { content: { "application/json": { schema: namedComponent(schema) } }, description };
}

/** An error answer: `{error, field?}`. */
export const errorBody = (description: string) => json(ErrorBody, description);

/** The bearer token, or (where a route says so) a stream ticket. */
export const BEARER = [{ bearer: [] }];

type ApiRouteConfig<P extends string> = Omit<RouteConfig, "path"> & {
  path: P;
  operationId: string;
  summary: string;
};

/** A route of the API: `createRoute` that insists on an operationId and a summary. */
export function apiRoute<P extends string, R extends ApiRouteConfig<P>>(config: R) {
  return createRoute(config);
}
