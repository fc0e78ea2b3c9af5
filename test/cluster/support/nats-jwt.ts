import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAccount, createOperator, createUser, type KeyPair } from "@nats-io/nkeys";

/**
 * A NATS operator, one account with JetStream and one user, as JWTs signed with nkeys made now (test-only), for a
 * nats-server in operator mode (memory resolver) and a `.creds` file for `--nats-creds`.
 */
export interface JwtDeployment {
  /** The server config's operator part. */
  config: string;
  /** The user's `.creds` file (JWT and seed, mode 0600). */
  credsFile: string;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function sign(issuer: KeyPair, subject: string, name: string, nats: Record<string, unknown>): string {
  const claims: Record<string, unknown> = {
    iat: Math.floor(Date.now() / 1000),
    iss: issuer.getPublicKey(),
    name,
    sub: subject,
    nats: { ...nats, version: 2 },
  };
  claims.jti = createHash("sha256")
    .update(JSON.stringify(claims))
    .digest("base64url")
    .toUpperCase()
    .slice(0, 52);
  const head = `${encode({ typ: "JWT", alg: "ed25519-nkey" })}.${encode(claims)}`;
  return `${head}.${Buffer.from(issuer.sign(new TextEncoder().encode(head))).toString("base64url")}`;
}

export function makeJwtDeployment(dir: string): JwtDeployment {
  const operator = createOperator();
  const account = createAccount();
  const user = createUser();
  const operatorJwt = sign(operator, operator.getPublicKey(), "test-operator", { type: "operator" });
  const unlimited = {
    subs: -1,
    data: -1,
    payload: -1,
    imports: -1,
    exports: -1,
    wildcards: true,
    conn: -1,
    leaf: -1,
  };
  const accountJwt = sign(operator, account.getPublicKey(), "provider-runtime", {
    type: "account",
    limits: { ...unlimited, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 },
  });
  const system = createAccount();
  const systemJwt = sign(operator, system.getPublicKey(), "SYS", { type: "account", limits: unlimited });
  const userJwt = sign(account, user.getPublicKey(), "node", {
    type: "user",
    subs: -1,
    data: -1,
    payload: -1,
  });
  const credsFile = join(dir, "node.creds");
  writeFileSync(
    credsFile,
    `-----BEGIN NATS USER JWT-----\n${userJwt}\n------END NATS USER JWT------\n\n` +
      `-----BEGIN USER NKEY SEED-----\n${text(user.getSeed())}\n------END USER NKEY SEED------\n`,
    { mode: 0o600 },
  );
  const config = `operator: "${operatorJwt}"
resolver: MEMORY
system_account: ${system.getPublicKey()}
resolver_preload: { ${account.getPublicKey()}: "${accountJwt}", ${system.getPublicKey()}: "${systemJwt}" }
`;
  return { config, credsFile };
}
