import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The environment of every server the benchmarks start (bench/run.mjs's site, race-sockets' echo Worker).
 *
 * wrangler dev's local observability (the trace store its local explorer reads) writes every request into a SQLite
 * file, with an fsync, on workerd's one JavaScript thread: about 2.7 ms of CPU and two fsyncs per request in each
 * server, measured with the race-sockets benchmark (bench/README.md). It is a development tool, not the product,
 * so the benchmarks' servers run without it.
 */
export const BENCH_SERVER_ENV = { X_LOCAL_OBSERVABILITY: "false" };

/**
 * Where the benchmarks' servers keep their local state (D1 and the Durable Objects' SQLite files): in memory
 * (/dev/shm, a tmpfs) unless `BENCH_STATE=disk`. Locally every SQLite commit is an fsync on workerd's one thread, so
 * on disk each write of a Durable Object (and each local D1 query) waits for the disk while every other request
 * waits for the thread; on Cloudflare an answer waits until its writes are durable (the output gate), but the
 * isolate's thread does not, and writes made close together are confirmed together. The echo object writes nothing, so on disk a comparison
 * with it mostly measures this machine's disk. Both are reported in bench/README.md; run.mjs records which
 * was used in each result file.
 */
export const BENCH_STATE = process.env.BENCH_STATE === "disk" || !existsSync("/dev/shm") ? "disk" : "memory";

export function benchStateDir(prefix) {
  return mkdtempSync(path.join(BENCH_STATE === "memory" ? "/dev/shm" : tmpdir(), prefix));
}
