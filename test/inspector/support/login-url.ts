// TEST TOOL: a fragment that opens the inspector, `#code=…` with a fresh one-time login code (POST /v1/login-codes
// with the server's token): what a test appends to the page's URL (the server's, or a proxy's in front of it).
import type { ServeProcess } from "../../server/support/serve-process.js";

export async function loginFragment(server: ServeProcess): Promise<string> {
  const response = await server.fetch("/v1/login-codes", { method: "POST" });
  if (response.status !== 201) throw new Error(`POST /v1/login-codes: ${response.status}`);
  const { code } = (await response.json()) as { code: string };
  return `#code=${code}`;
}
