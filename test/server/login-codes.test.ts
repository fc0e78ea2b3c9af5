import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_CODE_TTL_MS, LoginCodes } from "../../src/server/login-codes.js";
import { ServeProcess } from "./support/serve-process.js";

const TOKEN = "login-codes-test-token";
let server: ServeProcess;

beforeAll(async () => {
  server = await ServeProcess.start({ token: TOKEN });
});
afterAll(async () => {
  await server?.stop();
  ServeProcess.removeDirs();
});

const exchange = (code: unknown) =>
  server.json("/v1/login-codes/exchange", { method: "POST", auth: null, json: { code } });

describe("one-time login codes for the inspector (real serve)", () => {
  it("serve prints the inspector's URL with a code, not the token; the code gives the token once", async () => {
    await server.cli.waitFor("err", /the inspector: \S+#code=/);
    const url = /the inspector: (\S+)/.exec(server.stderr)?.[1] ?? "";
    expect(url.startsWith(`${server.url}/#code=`)).toBe(true);
    expect(server.stderr).not.toContain(TOKEN);
    const code = url.slice(url.indexOf("#code=") + "#code=".length);
    await expect(exchange(code)).resolves.toEqual({ status: 200, body: { token: TOKEN } });
    const again = await exchange(code);
    expect(again.status).toBe(401);
    expect(again.body).not.toHaveProperty("token");
  });

  it("POST /v1/login-codes needs the token and makes a code good for one exchange", async () => {
    const refused = await server.json("/v1/login-codes", { method: "POST", auth: null });
    expect(refused.status).toBe(401);
    const made = await server.json<{ code: string; expiresAt: string }>("/v1/login-codes", {
      method: "POST",
    });
    expect(made.status).toBe(201);
    expect(Date.parse(made.body.expiresAt) - Date.now()).toBeGreaterThan(LOGIN_CODE_TTL_MS - 60_000);
    expect((await exchange(made.body.code)).body).toEqual({ token: TOKEN });
    expect((await exchange(made.body.code)).status).toBe(401);
  });

  it("refuses a made-up code (401) and a bad body (400 naming the field) without the token", async () => {
    expect((await exchange("made-up")).status).toBe(401);
    const bad = await exchange(42);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: "code" });
    const huge = await server.fetch("/v1/login-codes/exchange", {
      method: "POST",
      auth: null,
      json: { code: "x".repeat(10_000) },
    });
    expect(huge.status).toBe(413);
  });
});

describe("LoginCodes", () => {
  it("a code is good until it expires, and once", () => {
    let now = 1_000_000;
    const codes = new LoginCodes(() => now);
    const late = codes.issue();
    now += LOGIN_CODE_TTL_MS;
    expect(codes.redeem(late.code)).toBe(false);
    const fresh = codes.issue();
    now += LOGIN_CODE_TTL_MS - 1;
    expect(codes.redeem(fresh.code)).toBe(true);
    expect(codes.redeem(fresh.code)).toBe(false);
  });

  it("makes unguessable codes: 192 random bits, all different", () => {
    const codes = new LoginCodes();
    const made = new Set(Array.from({ length: 200 }, () => codes.issue().code));
    expect(made.size).toBe(200);
    for (const code of made) expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});
