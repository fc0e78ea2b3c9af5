import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createUser } from "@nats-io/nkeys";

/**
 * The NATS users docs/cluster.md gives, made for one test: node users (one by password, one by nkey seed given as
 * `--nats-creds`) that may publish commands, events and the registry; a read-only watcher; all with passwords
 * and seeds generated now (nothing secret is committed).
 */
export interface ClusterAccounts {
  nodePassword: string;
  watcherPassword: string;
  /** A user nkey seed file for `--nats-creds` (mode 0600). */
  seedFile: string;
  /** The server config's `authorization` block. */
  authorization: string;
}

export function makeClusterAccounts(dir: string, stream = "PROVIDER_RUNTIME"): ClusterAccounts {
  const nodePassword = `np-${randomBytes(18).toString("base64url")}`;
  const watcherPassword = `wp-${randomBytes(18).toString("base64url")}`;
  const user = createUser();
  const seedFile = join(dir, "node.nk");
  writeFileSync(seedFile, `${new TextDecoder().decode(user.getSeed())}\n`, { mode: 0o600 });
  const prefix = stream.toLowerCase();
  const node = nodePermissions(stream, prefix);
  const watcher = watcherPermissions(stream);
  const authorization = `authorization {
  users = [
    { user: "node", password: "${nodePassword}", permissions: ${node} }
    { nkey: "${user.getPublicKey()}", permissions: ${node} }
    { user: "watcher", password: "${watcherPassword}", permissions: ${watcher} }
  ]
}
`;
  return { nodePassword, watcherPassword, seedFile, authorization };
}

/** What a node needs (docs/cluster.md, "NATS users and permissions"). */
export function nodePermissions(stream: string, prefix: string): string {
  return `{
    publish: { allow: ["${prefix}.events.>", "${prefix}.nodes.*.commands", "$JS.API.>", "$KV.${stream}_sessions.>",
                       "$O.${stream}_native.>", "$JS.ACK.>", "_INBOX.>"] }
    subscribe: { allow: ["${prefix}.nodes.*.commands", "_INBOX.>"] }
  }`;
}

/** A read-only watcher: reads the stream and the registry, publishes nothing a node would take. */
export function watcherPermissions(stream: string): string {
  return `{
    publish: { allow: ["$JS.API.INFO", "$JS.API.STREAM.INFO.${stream}", "$JS.API.STREAM.MSG.GET.${stream}",
                       "$JS.API.DIRECT.GET.${stream}", "$JS.API.DIRECT.GET.${stream}.>",
                       "$JS.API.CONSUMER.CREATE.${stream}", "$JS.API.CONSUMER.CREATE.${stream}.>",
                       "$JS.API.CONSUMER.MSG.NEXT.${stream}.>", "$JS.API.CONSUMER.DELETE.${stream}.>",
                       "$JS.API.STREAM.INFO.KV_${stream}_sessions", "$JS.API.DIRECT.GET.KV_${stream}_sessions.>",
                       "$JS.API.CONSUMER.CREATE.KV_${stream}_sessions.>"] }
    subscribe: { allow: ["_INBOX.>"] }
  }`;
}
