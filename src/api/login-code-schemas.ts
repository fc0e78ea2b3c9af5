import * as z from "zod";

/** The bodies of the inspector's one-time login codes (docs/server.md, docs/inspector.md). */

export const LoginCode = z.object({
  code: z.string().describe("Good for one exchange: open the inspector at `/#code=CODE`."),
  expiresAt: z
    .string()
    .describe("When the code stops being accepted (ISO 8601), 5 minutes after it was made."),
});
export type LoginCode = z.infer<typeof LoginCode>;

export const LoginCodeExchangeBody = z
  .object({ code: z.string().min(1).max(200).describe("A code from `POST /v1/login-codes`.") })
  .strict();
export type LoginCodeExchangeBody = z.infer<typeof LoginCodeExchangeBody>;

export const LoginToken = z.object({
  token: z
    .string()
    .describe("The server's bearer token: send it as `Authorization: Bearer`, never in a URL."),
});
export type LoginToken = z.infer<typeof LoginToken>;
