/**
 * `npm run bench [name…]`: builds and starts the server once through scripts/start.mjs (free port, fresh
 * state directory, like the e2e tests), runs the chosen benchmarks one after another (they share two cores,
 * so never in parallel), writes bench/results/<name>.json and prints a summary.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { startLocalServer } from "../scripts/lib/server.mjs";

const BENCHMARKS = {
  "admin-analytics": () => import("./admin-analytics.mjs"),
  "admin-overview": () => import("./admin-overview.mjs"),
  "config-rps": () => import("./config-rps.mjs"),
  mailing: () => import("./mailing.mjs"),
  lighthouse: () => import("./lighthouse.mjs"),
  "payment-flow": () => import("./payment-flow.mjs"),
  "race-screen-load": () => import("./race-screen-load.mjs"),
  "race-sockets": () => import("./race-sockets.mjs"),
  "results-table": () => import("./results-table.mjs"),
  "box-office": () => import("./box-office.mjs"),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`Okänd benchmark: ${unknown.join(", ")}. Finns: ${Object.keys(BENCHMARKS).join(", ")}`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(BENCHMARKS);

const resultsDir = path.join(import.meta.dirname, "results");
mkdirSync(resultsDir, { recursive: true });

const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "okänd",
  commit: gitCommit(),
  // Other work on the machine skews every figure; this says how busy it was when the run began.
  loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
};

console.log("Bygger och startar servern (scripts/start.mjs)…");
const server = await startLocalServer({ echo: process.env.BENCH_SERVER_LOG === "1" });
let failed = false;
try {
  for (const name of names) {
    console.log(`\n── ${name} ──`);
    try {
      const bench = await BENCHMARKS[name]();
      const { figures, summary } = await bench.run({ baseURL: server.baseURL, stateDir: server.stateDir });
      const record = { name, date: new Date().toISOString(), baseURL: server.baseURL, machine, figures };
      writeFileSync(path.join(resultsDir, `${name}.json`), JSON.stringify(record, null, 2) + "\n");
      console.log(summary);
      console.log(`→ bench/results/${name}.json`);
    } catch (err) {
      failed = true;
      console.error(`${name} misslyckades: ${err.stack ?? err}`);
    }
  }
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);

function gitCommit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}
