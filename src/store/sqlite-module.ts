import type BetterSqlite3 from "better-sqlite3";

export type SqliteDatabase = BetterSqlite3.Database;
type DatabaseConstructor = typeof BetterSqlite3;

/** The version range the store is tested with; 13.x needs Node 22 and crashes on Node 20. */
export const BETTER_SQLITE3_RANGE = "better-sqlite3@12";

let loaded: Promise<DatabaseConstructor> | undefined;

const importModule = (): Promise<{ default: DatabaseConstructor }> => import("better-sqlite3");

/**
 * better-sqlite3 is an optionalDependency loaded only here, the first time a store opens, so that nothing else of
 * the package needs its native binding. A missing or unloadable module is an error that says what to install.
 */
export function loadSqlite(load: typeof importModule = importModule): Promise<DatabaseConstructor> {
  if (load !== importModule) return fromModule(load());
  loaded ??= fromModule(load()).catch((error: unknown) => {
    loaded = undefined; // a later open tries again (e.g. after `npm install`)
    throw error;
  });
  return loaded;
}

function fromModule(module: ReturnType<typeof importModule>): Promise<DatabaseConstructor> {
  return module.then(
    (module) => module.default,
    (cause: unknown) => {
      throw new Error(
        `The SQLite store needs ${BETTER_SQLITE3_RANGE} (an optional dependency that is not installed or did not build): npm install ${BETTER_SQLITE3_RANGE}`,
        { cause },
      );
    },
  );
}

/** Opens the file; a native binding built for another Node is reported the same actionable way. */
export function openDatabase(Database: DatabaseConstructor, file: string): SqliteDatabase {
  try {
    return new Database(file);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/NODE_MODULE_VERSION|invalid ELF|was compiled against|bindings file/i.test(message))
      throw new Error(
        `better-sqlite3's native binding does not load in Node ${process.versions.node}: npm rebuild better-sqlite3 (or npm install ${BETTER_SQLITE3_RANGE})`,
        { cause },
      );
    throw cause;
  }
}
