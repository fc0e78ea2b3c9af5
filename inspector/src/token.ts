const KEY = "provider-runtime.token";

/**
 * The server token: taken from the URL fragment (`#token=…`, then removed from the address bar) or from this
 * tab's sessionStorage. It only ever leaves the page in an `Authorization: Bearer` header.
 */
export function readToken(location: Location, history: History, storage: Storage): string | undefined {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const fromFragment = params.get("token");
  if (fromFragment !== null && fromFragment.length > 0) {
    storage.setItem(KEY, fromFragment);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
    return fromFragment;
  }
  return storage.getItem(KEY) ?? undefined;
}

export function saveToken(storage: Storage, token: string): void {
  storage.setItem(KEY, token);
}

export function forgetToken(storage: Storage): void {
  storage.removeItem(KEY);
}
