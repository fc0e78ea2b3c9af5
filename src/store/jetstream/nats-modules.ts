import type * as Jetstream from "@nats-io/jetstream";
import type * as Kv from "@nats-io/kv";
import type * as Obj from "@nats-io/obj";
import type * as Transport from "@nats-io/transport-node";

/** The NATS client packages, at the versions this project is tested with (optional peer dependencies). */
export const NATS_PACKAGES = [
  { name: "@nats-io/transport-node", version: "3.4.0" },
  { name: "@nats-io/jetstream", version: "3.4.0" },
  { name: "@nats-io/kv", version: "3.4.0" },
  { name: "@nats-io/obj", version: "3.4.0" },
] as const;

export interface NatsModules {
  transport: typeof Transport;
  jetstream: typeof Jetstream;
  kv: typeof Kv;
  obj: typeof Obj;
}

export class NatsNotInstalledError extends Error {
  constructor(packageName: string, cause: unknown) {
    const all = NATS_PACKAGES.map((p) => `${p.name}@${p.version}`).join(" ");
    super(
      `serve --nats needs the NATS client packages; ${packageName} is not installed. provider-runtime is tested ` +
        `with ${all}: npm i ${all}`,
      { cause },
    );
    this.name = "NatsNotInstalledError";
  }
}

let loaded: Promise<NatsModules> | undefined;

/** Imports the NATS packages on first use, so a host that never clusters never needs them. */
export function loadNatsModules(): Promise<NatsModules> {
  loaded ??= (async () => {
    const [transport, jetstream, kv, obj] = await Promise.all(
      NATS_PACKAGES.map((p) => importPackage(p.name)),
    );
    return {
      transport: transport as typeof Transport,
      jetstream: jetstream as typeof Jetstream,
      kv: kv as typeof Kv,
      obj: obj as typeof Obj,
    };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

async function importPackage(name: string): Promise<unknown> {
  try {
    return await import(name);
  } catch (error) {
    if (isModuleNotFound(error)) throw new NatsNotInstalledError(name, error);
    throw error;
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}
