/**
 * The environment of every server the benchmarks start (bench/run.mjs's site, race-sockets' echo Worker).
 *
 * wrangler dev's local observability (the trace store its local explorer reads) writes every request into a SQLite
 * file, with an fsync, on workerd's one JavaScript thread: about 2.7 ms of CPU and two fsyncs per request in each
 * server, measured with the race-sockets benchmark (README, Benchmarks). It is a development tool, not the product,
 * so the benchmarks' servers run without it.
 */
export const BENCH_SERVER_ENV = { X_LOCAL_OBSERVABILITY: "false" };
