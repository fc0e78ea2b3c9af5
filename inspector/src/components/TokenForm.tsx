import { useState } from "preact/hooks";

/** Asks for the server's token once (it is kept for this tab only). */
export function TokenForm({ onToken, rejected }: { onToken: (token: string) => void; rejected: boolean }) {
  const [token, setToken] = useState("");
  return (
    <form
      class="token-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (token.trim()) onToken(token.trim());
      }}
    >
      <h2>Connect to the server</h2>
      {rejected && (
        <p class="error-text" role="alert">
          The server refused that token.
        </p>
      )}
      <label>
        Token (from <code>serve</code>'s <code>--token</code> or <code>DATA/token</code>)
        <input
          type="password"
          autocomplete="off"
          value={token}
          onInput={(e) => setToken((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit">Connect</button>
    </form>
  );
}
