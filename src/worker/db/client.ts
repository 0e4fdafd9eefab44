import { drizzle } from "drizzle-orm/d1";

export type Db = ReturnType<typeof database>;

/**
 * The D1 database through drizzle's query builder, made per request (it wraps that request's binding). No schema is
 * given: nothing uses drizzle's relational queries (`db.query.…`), and with one drizzle rebuilds its relational
 * config from every table on each call: about a quarter of the Worker's JavaScript samples per race-day tap in a
 * V8 CPU profile of the rapid-timing benchmark.
 */
export function database(d1: D1Database) {
  return drizzle(d1);
}
