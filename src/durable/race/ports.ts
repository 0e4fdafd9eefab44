/**
 * What the race room (room.ts) needs of its storage, as two small ports, so the same room runs in the race's
 * Durable Object (its SQLite storage, `durablePorts` in race-do.ts) and in Node's built-in SQLite for the rules'
 * tests (test/race-room/node-ports.ts). Nothing here knows which: no Durable Object type is named in the room.
 *
 * Both ports are synchronous, as the Durable Object's SQLite API is: a rule decides and writes in one step, with no
 * await in which another call could land.
 */

/** A value SQLite stores and answers. */
export type SqlValue = string | number | null | ArrayBuffer;

export interface SqlPort {
  /**
   * One statement with its bindings, its rows as plain objects. Without bindings it may be several statements
   * separated by `;` (a schema migration); then it answers no rows.
   */
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): T[];
  /** Runs `apply` as one transaction: every write it made is undone when it throws (the error is thrown on). */
  transaction<T>(apply: () => T): T;
}

/** A small synchronous key-value store beside the SQL (values are kept as structured clones or JSON). */
export interface KvPort {
  get<T>(key: string): T | undefined;
  put(key: string, value: unknown): void;
  delete(key: string): void;
}
