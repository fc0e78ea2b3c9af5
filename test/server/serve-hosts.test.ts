import { request } from "node:http";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ServeProcess } from "./support/serve-process.js";

afterEach(() => ServeProcess.stopAll());
afterAll(() => ServeProcess.removeDirs());

/** A GET with the given `Host` header (fetch does not let a caller choose it; a rebinding browser does). */
function get(
  port: number,
  path: string,
  host: string,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      res.resume();
      res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.once("error", reject);
    req.end();
  });
}

describe("serve on loopback: DNS rebinding and framing", () => {
  it("answers only a loopback Host; another name gets 403 on health, the page and the API", async () => {
    const server = await ServeProcess.start();
    const { port } = server;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "localhost"])
      expect((await get(port, "/v1/health", host)).status, host).toBe(200);
    for (const host of [`evil.example:${port}`, "evil.example", `127.0.0.1.evil.example:${port}`])
      for (const path of ["/v1/health", "/", "/v1/sessions"])
        expect((await get(port, path, host)).status, `${host} ${path}`).toBe(403);
  }, 60_000);

  it("GET / may not be framed or sniffed", async () => {
    const server = await ServeProcess.start();
    const page = await get(server.port, "/", `127.0.0.1:${server.port}`);
    expect(page.status).toBe(200);
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
  }, 60_000);
});
