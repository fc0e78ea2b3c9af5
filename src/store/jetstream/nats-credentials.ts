import { readFile } from "node:fs/promises";

/** How a node proves who it is to NATS, as NATS deployments hand it out (DESIGN.md §10). */
export interface NatsCredentials {
  /** User and password, or a token: from the URL (`nats://user:pass@host`, `nats://token@host`) or the environment. */
  user?: string;
  pass?: string;
  token?: string;
  /** `--nats-creds FILE`: a `.creds` file (user JWT and nkey seed) or a bare nkey seed. */
  credsFile?: string;
  /** `--nats-tls-ca/--nats-tls-cert/--nats-tls-key`: a CA to trust and a client certificate to show. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

/** The environment variables read, as the `nats` CLI names them. */
export const NATS_ENV = { user: "NATS_USER", pass: "NATS_PASSWORD", token: "NATS_TOKEN" } as const;

export interface ParsedServers {
  /** The server URLs without their credentials: safe to print and to hand to the client. */
  servers: string[];
  credentials: NatsCredentials;
}

/**
 * Splits `--nats URL[,URL…]` into server addresses and credentials. The NATS client does not send the user info
 * of a URL, so it is taken out here; every URL must carry the same (or none). The environment fills in what the
 * URLs do not say.
 */
export function parseNatsServers(
  urls: string | readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ParsedServers {
  const list = (typeof urls === "string" ? urls.split(",") : urls).map((url) => url.trim()).filter(Boolean);
  if (list.length === 0) throw new Error("--nats: no server URL");
  const servers: string[] = [];
  let found: { user: string; pass: string | undefined } | undefined;
  for (const text of list) {
    const withScheme = /^[a-z]+:\/\//i.test(text) ? text : `nats://${text}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      throw new Error(`--nats: not a URL: ${redactUrl(text)}`);
    }
    if (url.username !== "" || url.password !== "") {
      const these = { user: decodeURIComponent(url.username), pass: passOf(withScheme, url) };
      if (found !== undefined && (found.user !== these.user || found.pass !== these.pass))
        throw new Error("--nats: the URLs carry different credentials");
      found = these;
      url.username = "";
      url.password = "";
    }
    servers.push(url.toString().replace(/\/$/, ""));
  }
  const credentials: NatsCredentials = {};
  if (found !== undefined) {
    if (found.pass === undefined) credentials.token = found.user;
    else {
      credentials.user = found.user;
      credentials.pass = found.pass;
    }
  } else {
    const token = env[NATS_ENV.token];
    const user = env[NATS_ENV.user];
    if (token) credentials.token = token;
    else if (user) {
      credentials.user = user;
      credentials.pass = env[NATS_ENV.pass] ?? "";
    }
  }
  return { servers, credentials };
}

function passOf(text: string, url: URL): string | undefined {
  // `nats://user:@host` has an empty password, `nats://token@host` none: only the raw text tells them apart.
  const userInfo = /^[a-z]+:\/\/([^/]*)@/i.exec(text)?.[1] ?? "";
  return userInfo.includes(":") ? decodeURIComponent(url.password) : undefined;
}

/** A URL (or a comma-separated list) with any user info replaced, for messages and logs. */
export function redactUrl(text: string): string {
  return text.replace(/(^|,|\s)([a-z]+:\/\/)?[^\s,/]*@/gi, (_, lead: string, scheme: string | undefined) => {
    return `${lead}${scheme ?? ""}***@`;
  });
}

/** What a `--nats-creds` file holds: a `.creds` file (a JWT and a seed) or a bare nkey seed. */
export type CredsFile = { kind: "creds"; bytes: Uint8Array } | { kind: "nkey"; seed: Uint8Array };

export async function readCredsFile(file: string): Promise<CredsFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`--nats-creds ${file}: ${(error as Error).message}`);
  }
  if (text.includes("BEGIN NATS USER JWT")) return { kind: "creds", bytes: new TextEncoder().encode(text) };
  const seed = /\bSU[A-Z2-7]{56}\b/.exec(text)?.[0];
  if (seed === undefined)
    throw new Error(`--nats-creds ${file}: neither a .creds file (user JWT and seed) nor a user nkey seed`);
  return { kind: "nkey", seed: new TextEncoder().encode(seed) };
}
