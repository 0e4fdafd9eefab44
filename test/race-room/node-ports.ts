/**
 * The race room's ports (src/durable/race/ports.ts) on Node's built-in SQLite, in memory: the same SQL the race
 * object runs on its Durable Object storage, so the rules' tests need no workerd, no HTTP and no sign-in.
 *
 * What differs from the Durable Object's SQLite and how it is made the same: a statement with several parts is a
 * schema script (node's `prepare` would run only the first part, so it goes to `exec`); rows come back as plain
 * objects; `transaction` nests with savepoints, as `transactionSync` does; the key-value port keeps structured
 * clones, as the object's synchronous KV does.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { KvPort, SqlPort, SqlValue } from "../../src/durable/race/ports";

export interface NodePorts {
  sql: SqlPort;
  kv: KvPort;
  /** The database itself, for a test that looks at what was stored. */
  db: DatabaseSync;
}

export function nodePorts(): NodePorts {
  const db = new DatabaseSync(":memory:");
  const statements = new Map<string, StatementSync>();
  let depth = 0;
  const sql: SqlPort = {
    exec<T extends Record<string, SqlValue>>(query: string, ...bindings: unknown[]): T[] {
      if (bindings.length === 0 && isScript(query)) {
        db.exec(query);
        return [];
      }
      let statement = statements.get(query);
      if (!statement) {
        statement = db.prepare(query);
        statements.set(query, statement);
      }
      const rows = statement.all(...(bindings as (string | number | null | Uint8Array)[]));
      return rows.map((row) => ({ ...row }) as T);
    },
    transaction<T>(apply: () => T): T {
      const savepoint = `sp${depth}`;
      db.exec(`SAVEPOINT ${savepoint}`);
      depth += 1;
      try {
        const result = apply();
        depth -= 1;
        db.exec(`RELEASE ${savepoint}`);
        return result;
      } catch (err) {
        depth -= 1;
        db.exec(`ROLLBACK TO ${savepoint}`);
        db.exec(`RELEASE ${savepoint}`);
        throw err;
      }
    },
  };
  const values = new Map<string, unknown>();
  const kv: KvPort = {
    get: <T>(key: string) => (values.has(key) ? (structuredClone(values.get(key)) as T) : undefined),
    put: (key, value) => void values.set(key, structuredClone(value)),
    delete: (key) => void values.delete(key),
  };
  return { sql, kv, db };
}

/** Several statements (a migration): a `;` with more SQL after it. */
function isScript(query: string): boolean {
  const end = query.indexOf(";");
  return end !== -1 && query.slice(end + 1).trim() !== "";
}
