const KEY = "provider-runtime.token";

/** What of `location`, `history`, `sessionStorage` and `fetch` the token needs (the page passes the real ones). */
export interface PageUrl {
  hash: string;
  pathname: string;
  search: string;
}
export interface UrlHistory {
  replaceState(data: unknown, unused: string, url: string): void;
}
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
export type ExchangeFetch = (
  path: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<{ ok: boolean; json(): Promise<unknown> }>;
/** Where the page exchanges a one-time login code for the token (src/server/login-code-routes.ts). */
const EXCHANGE_PATH = "/v1/login-codes/exchange";

/**
 * The server token, from this tab's sessionStorage (put there by a login code's exchange or by the token form).
 * It only ever leaves the page in an `Authorization: Bearer` header, and never appears in a URL.
 */
export function readToken(
  _location: PageUrl,
  _history: UrlHistory,
  storage: TokenStorage,
): string | undefined {
  return storage.getItem(KEY) ?? undefined;
}

/**
 * Before the page starts: a `#code=…` in the URL is removed from the address bar (and so from the history entry)
 * at once, then exchanged for the token, which is kept in sessionStorage. A code is good once, so the URL is
 * harmless after this; a spent or expired code leaves the token form. A `#token=…` fragment (how the page was
 * opened before codes) is removed the same way but not used: the token does not belong in a URL.
 */
export async function exchangeLoginCode(
  location: PageUrl,
  history: UrlHistory,
  storage: TokenStorage,
  fetchImpl: ExchangeFetch = (path, init) => fetch(path, init),
): Promise<void> {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const code = params.get("code");
  if (code === null && !params.has("token")) return;
  params.delete("code");
  params.delete("token");
  const rest = params.toString();
  history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
  if (code === null || code.length === 0) return;
  try {
    const response = await fetchImpl(EXCHANGE_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    if (!response.ok) return;
    const body = (await response.json()) as { token?: unknown };
    if (typeof body.token === "string" && body.token.length > 0) storage.setItem(KEY, body.token);
  } catch {
    // the server is unreachable: the token form stays, as without a code
  }
}

export function saveToken(storage: TokenStorage, token: string): void {
  storage.setItem(KEY, token);
}

export function forgetToken(storage: TokenStorage): void {
  storage.removeItem(KEY);
}
