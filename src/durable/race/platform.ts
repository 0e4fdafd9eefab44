/**
 * What the race object's shell (race-do.ts) adds to the room on the platform: the room's two ports on the object's
 * SQLite storage, and the shape of every RPC answer.
 */
import { RaceError } from "../../shared/race-protocol";
import type { KvPort, SqlPort } from "./ports";
import type { RaceAnswer } from "./types";

/**
 * An RPC method's answer: the race's refusals (its rules' 4xx) travel as values, not exceptions, so they are
 * never logged as the object's uncaught errors and real errors stand out. Anything else is thrown on.
 */
export async function answer<T>(run: () => Promise<T>): Promise<RaceAnswer<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (!(err instanceof RaceError)) throw err;
    const refusal: RaceAnswer<T> = { ok: false, status: err.status, error: err.message };
    if (err.final) refusal.final = true;
    if (err.retimes) refusal.retimes = err.retimes;
    if (err.retryAfter !== undefined) refusal.retryAfter = err.retryAfter;
    return refusal;
  }
}

/** The room's two ports on the object's SQLite storage (ports.ts). */
export function durablePorts(storage: DurableObjectStorage): { sql: SqlPort; kv: KvPort } {
  return {
    sql: {
      exec: (query, ...bindings) => storage.sql.exec(query, ...bindings).toArray() as never,
      transaction: (apply) => storage.transactionSync(apply),
    },
    kv: {
      get: (key) => storage.kv.get(key),
      put: (key, value) => storage.kv.put(key, value),
      delete: (key) => void storage.kv.delete(key),
    },
  };
}
