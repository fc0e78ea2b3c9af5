import type { RequestResponse } from "../../contracts/driver.js";
import { isObject, type JsonObject, str } from "../../kit/guards.js";

/**
 * The `content` of an accepted form elicitation: the host's typed content (`payload.content`, as the CLI sends
 * it) when given, else its string answers converted to the JSON type of each field of `requestedSchema` (a
 * number field gets a number, a boolean a boolean, an array field an array), so a host that only answers with
 * strings still sends the agent a valid form. Fields the schema does not name are left out.
 */
export function elicitationContent(params: JsonObject, response: RequestResponse): JsonObject {
  const payload = isObject(response.payload) ? response.payload : undefined;
  if (isObject(payload?.content)) return payload.content;
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const content: JsonObject = {};
  for (const [name, answer] of Object.entries(response.answers ?? {})) {
    const field = properties[name];
    if (!isObject(field)) continue;
    const value = typedValue(field, answer);
    if (value !== undefined) content[name] = value;
  }
  return content;
}

function typedValue(field: JsonObject, answer: string | string[]): unknown {
  const values = Array.isArray(answer) ? answer : [answer];
  const first = values[0];
  switch (str(field.type)) {
    case "array":
      return values;
    case "number":
    case "integer": {
      const number = first === undefined ? Number.NaN : Number(first);
      return Number.isFinite(number) ? number : undefined;
    }
    case "boolean":
      return first === undefined ? undefined : ["true", "yes", "y", "1"].includes(first.toLowerCase());
    default:
      return first === undefined ? undefined : values.join(", ");
  }
}

/** The JSON-RPC result of `elicitation/create` for the host's response. */
export function elicitationResult(params: JsonObject, response: RequestResponse): JsonObject {
  if (response.decision === "accept" || response.decision === "acceptForSession") {
    // A URL elicitation has no form: accepting says the user went to the URL.
    if (params.mode === "url") return { action: "accept" };
    return { action: "accept", content: elicitationContent(params, response) };
  }
  return { action: response.decision === "decline" ? "decline" : "cancel" };
}
