/**
 * `npm run bench spectators-crowd`: the load test bench/load/spectators-crowd.test.ts (10,000 spectators' sockets at
 * once through the real Worker into the fan-out object) on workerd, through vitest's `load` project, which exists
 * only with BENCH_LOAD=1 (vitest.config.ts). Needs no server of its own. Fails when the test fails; the figure is
 * the test's wall time.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

export async function run() {
  const began = Date.now();
  const result = spawnSync("npx", ["vitest", "run", "--project", "load"], {
    cwd: path.resolve(import.meta.dirname, ".."),
    env: { ...process.env, BENCH_LOAD: "1" },
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`vitest run --project load slutade med ${result.status}`);
  const seconds = Math.round((Date.now() - began) / 100) / 10;
  return {
    figures: { sockets: 10_000, wallSeconds: seconds },
    summary: `10 000 uttag öppnade och stängda: ${seconds} s`,
  };
}
