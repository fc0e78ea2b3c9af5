export type { FollowStats } from "./followers.js";
export { openSqliteStore, SqliteStore, type SqliteStoreOptions, STORE_FILE } from "./sqlite-store.js";
export type {
  SessionOrigin,
  SessionPage,
  SessionPatch,
  SessionQuery,
  SessionRecord,
  SessionStore,
  StoreHealth,
} from "./types.js";
