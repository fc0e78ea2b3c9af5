import type { OpenAPIHono } from "@hono/zod-openapi";
import { LoginCode, LoginCodeExchangeBody, LoginToken } from "../api/login-code-schemas.js";
import type { ErrorBody } from "../api/schemas.js";
import { apiRoute, BEARER, errorBody, json } from "./api-route.js";
import { bodySizeLimit } from "./body-limit.js";
import type { LoginCodes } from "./login-codes.js";

/** The exchange takes no token (the code is the credential), so it reads no more than a code's worth of body. */
const EXCHANGE_MAX_BODY_BYTES = 1024;
export const LOGIN_CODE_EXCHANGE_PATH = "/v1/login-codes/exchange";

export const createLoginCodeRoute = apiRoute({
  method: "post",
  path: "/v1/login-codes",
  operationId: "createLoginCode",
  summary: "A one-time code that opens the inspector without the token in its URL (single use, 5 minutes).",
  description:
    "Open the inspector at `/#code=CODE`: the page exchanges the code for the token once and removes it from the " +
    "address bar, so a copied URL or the browser's history holds nothing usable afterwards.",
  security: BEARER,
  responses: {
    201: json(LoginCode, "The code."),
    401: errorBody("No token, or a wrong one."),
  },
});

export const exchangeLoginCodeRoute = apiRoute({
  method: "post",
  path: LOGIN_CODE_EXCHANGE_PATH,
  operationId: "exchangeLoginCode",
  summary: "Exchanges a one-time login code for the token; needs no token.",
  description: "A code is good once: a second exchange of it, or one after 5 minutes, is a 401.",
  security: [],
  request: { body: { ...json(LoginCodeExchangeBody, "The code."), required: true } },
  responses: {
    200: json(LoginToken, "The token."),
    400: errorBody("A bad body."),
    401: errorBody("The code is unknown, spent or expired."),
    413: errorBody("The body is too large."),
  },
});

/** The exchange: mounted before the token check, which it does not go through. */
export function mountLoginCodeExchange(app: OpenAPIHono, codes: LoginCodes, token: string): void {
  app.use(
    LOGIN_CODE_EXCHANGE_PATH,
    bodySizeLimit(EXCHANGE_MAX_BODY_BYTES, (c) =>
      c.json({ error: `the body is larger than ${EXCHANGE_MAX_BODY_BYTES} bytes` } satisfies ErrorBody, 413),
    ),
  );
  app.openapi(exchangeLoginCodeRoute, (c) => {
    const { code } = c.req.valid("json");
    if (!codes.redeem(code)) return c.json({ error: "unknown, spent or expired login code" }, 401);
    return c.json({ token }, 200);
  });
}

/** Making a code needs the token: mounted after the token check. */
export function mountLoginCodeIssue(app: OpenAPIHono, codes: LoginCodes): void {
  app.openapi(createLoginCodeRoute, (c) => c.json(codes.issue(), 201));
}
