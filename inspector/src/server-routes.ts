/**
 * What the server offers, read from its OpenAPI document (`GET /v1/openapi.json`): the page
 * shows a control only when the route (or body field) it calls is there, so a server without it shows no button
 * that could only fail.
 */
export interface ServerRoutes {
  has(method: string, path: string): boolean;
  /** A route's JSON body takes this property (e.g. a turn's `attachments`). */
  bodyHas(method: string, path: string, property: string): boolean;
  /** A route takes this query parameter (e.g. the list's `q`). */
  queryHas(method: string, path: string, name: string): boolean;
}

type Operation = {
  parameters?: Array<{ name?: string; in?: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Schema = { properties?: Record<string, unknown>; $ref?: string };
type OpenApi = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

export const NO_ROUTES: ServerRoutes = { has: () => false, bodyHas: () => false, queryHas: () => false };

export function readRoutes(doc: unknown): ServerRoutes {
  const api = (typeof doc === "object" && doc !== null ? doc : {}) as OpenApi;
  const operation = (method: string, path: string) => api.paths?.[path]?.[method.toLowerCase()];
  const resolve = (schema: Schema | undefined): Schema | undefined => {
    const ref = schema?.$ref?.replace("#/components/schemas/", "");
    return ref === undefined ? schema : api.components?.schemas?.[ref];
  };
  return {
    has: (method, path) => operation(method, path) !== undefined,
    bodyHas: (method, path, property) => {
      const schema = resolve(operation(method, path)?.requestBody?.content?.["application/json"]?.schema);
      return schema?.properties !== undefined && property in schema.properties;
    },
    queryHas: (method, path, name) =>
      (operation(method, path)?.parameters ?? []).some((p) => p.in === "query" && p.name === name),
  };
}

/** The document with the token: DESIGN.md §9 leaves it open, a server may still ask for the token. */
export async function fetchRoutes(baseUrl: string, headers: Record<string, string>): Promise<ServerRoutes> {
  try {
    const response = await fetch(`${baseUrl}/v1/openapi.json`, { headers });
    return response.ok ? readRoutes(await response.json()) : NO_ROUTES;
  } catch {
    return NO_ROUTES;
  }
}
