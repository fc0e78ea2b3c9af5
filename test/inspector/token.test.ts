import { describe, expect, it } from "vitest";
import {
  type ExchangeFetch,
  exchangeLoginCode,
  type PageUrl,
  readToken,
  type TokenStorage,
  type UrlHistory,
} from "../../inspector/src/token.js";

/** The page's URL, history and storage as the functions use them, recording what they were asked to do. */
function page(hash: string) {
  const state = { url: `/${hash}`, stored: new Map<string, string>(), fetched: [] as string[] };
  const location: PageUrl = { hash, pathname: "/", search: "" };
  const history: UrlHistory = {
    replaceState: (_data, _unused, url) => {
      state.url = url;
    },
  };
  const storage: TokenStorage = {
    getItem: (key) => state.stored.get(key) ?? null,
    setItem: (key, value) => {
      state.stored.set(key, value);
    },
    removeItem: (key) => {
      state.stored.delete(key);
    },
  };
  return { state, location, history, storage };
}

describe("the page's login code", () => {
  it("takes the code out of the URL before the exchange answers, then keeps the token", async () => {
    const { state, location, history, storage } = page("#session=s1&code=C1");
    let urlDuringExchange = "";
    const fetchToken: ExchangeFetch = async (path, init) => {
      urlDuringExchange = state.url;
      state.fetched.push(`${path} ${String(init.body)}`);
      return new Response(JSON.stringify({ token: "T" }), { status: 200 });
    };
    await exchangeLoginCode(location, history, storage, fetchToken);
    expect(urlDuringExchange).toBe("/#session=s1");
    expect(state.fetched).toEqual(['/v1/login-codes/exchange {"code":"C1"}']);
    expect(readToken(location, history, storage)).toBe("T");
  });

  it("a refused code leaves no token; a #token= fragment is removed and not used", async () => {
    const refused = page("#code=spent");
    const answer401 = (async () => new Response("{}", { status: 401 })) as unknown as ExchangeFetch;
    await exchangeLoginCode(refused.location, refused.history, refused.storage, answer401);
    expect(refused.state.url).toBe("/");
    expect(readToken(refused.location, refused.history, refused.storage)).toBeUndefined();

    const old = page("#token=SECRET");
    const never = (async () => {
      throw new Error("no request expected");
    }) as unknown as ExchangeFetch;
    await exchangeLoginCode(old.location, old.history, old.storage, never);
    expect(old.state.url).toBe("/");
    expect(readToken(old.location, old.history, old.storage)).toBeUndefined();
  });
});
