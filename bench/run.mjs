/**
 * `npm run bench [name…]`: builds and starts the server once through scripts/start.mjs (free port, fresh
 * state directory, like the e2e tests), runs the chosen benchmarks one after another (they share two cores,
 * so never in parallel), writes bench/results/<name>.json and prints a summary. A benchmark in IN_PROCESS needs
 * no server: it runs before the server is started, and alone it starts none.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { startLocalServer } from "../scripts/lib/server.mjs";
import { BENCH_SERVER_ENV, BENCH_STATE, benchStateDir } from "./lib/server-env.mjs";

const BENCHMARKS = {
  "admin-analytics": () => import("./admin-analytics.mjs"),
  "admin-overview": () => import("./admin-overview.mjs"),
  "admin-search": () => import("./admin-search.mjs"),
  "config-rps": () => import("./config-rps.mjs"),
  mailing: () => import("./mailing.mjs"),
  lighthouse: () => import("./lighthouse.mjs"),
  "payment-flow": () => import("./payment-flow.mjs"),
  "race-screen-load": () => import("./race-screen-load.mjs"),
  "race-sockets": () => import("./race-sockets.mjs"),
  spectators: () => import("./spectators.mjs"),
  "spectators-crowd": () => import("./spectators-crowd.mjs"),
  "phones-at-once": () => import("./phones-at-once.mjs"),
  "rapid-timing": () => import("./rapid-timing.mjs"),
  "results-table": () => import("./results-table.mjs"),
  "runner-search": () => import("./runner-search.mjs"),
  "box-office": () => import("./box-office.mjs"),
  checkin: () => import("./checkin.mjs"),
  "finish-photos": () => import("./finish-photos.mjs"),
  "swish-callback": () => import("./swish-callback.mjs"),
};

/** Benchmarks that measure pure code in this process; `run()` gets no baseURL or stateDir. */
const IN_PROCESS = new Set(["admin-search", "spectators-crowd"]);

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`Okänd benchmark: ${unknown.join(", ")}. Finns: ${Object.keys(BENCHMARKS).join(", ")}`);
  process.exit(2);
}
// The in-process ones first: they run while no server takes a core.
const names = (asked.length > 0 ? asked : Object.keys(BENCHMARKS)).sort(
  (a, b) => Number(!IN_PROCESS.has(a)) - Number(!IN_PROCESS.has(b)),
);

const resultsDir = path.join(import.meta.dirname, "results");
mkdirSync(resultsDir, { recursive: true });

const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "okänd",
  commit: gitCommit(),
  // Other work on the machine skews every figure; this says how busy it was when the run began.
  loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
  /** Where the servers kept their local state (lib/server-env.mjs): "memory" (/dev/shm) or "disk". */
  serverState: BENCH_STATE,
};

let server = null;
let failed = false;
try {
  for (const name of names) {
    if (!IN_PROCESS.has(name) && server === null) {
      console.log("Bygger och startar servern (scripts/start.mjs)…");
      console.log(
        `(serverns lokala lagring: ${BENCH_STATE === "memory" ? "i minnet, /dev/shm" : "på disk"}; BENCH_STATE=disk byter)`,
      );
      server = await startLocalServer({
        echo: process.env.BENCH_SERVER_LOG === "1",
        env: BENCH_SERVER_ENV,
        stateDir: benchStateDir("loppet-state-"),
      });
    }
    console.log(`\n── ${name} ──`);
    try {
      const bench = await BENCHMARKS[name]();
      const where = IN_PROCESS.has(name) ? {} : { baseURL: server.baseURL, stateDir: server.stateDir };
      const { figures, summary } = await bench.run(where);
      const record = { name, date: new Date().toISOString(), baseURL: where.baseURL ?? null, machine, figures };
      writeFileSync(path.join(resultsDir, `${name}.json`), JSON.stringify(record, null, 2) + "\n");
      console.log(summary);
      console.log(`→ bench/results/${name}.json`);
    } catch (err) {
      failed = true;
      console.error(`${name} misslyckades: ${err.stack ?? err}`);
    }
  }
} finally {
  await server?.stop();
  // The state directory was ours (given to the server, which leaves a given one in place).
  if (server) rmSync(server.stateDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function gitCommit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}
