/**
 * The minimal echo Worker (bench/echo/) as a benchmark's baseline (race-sockets, rapid-timing): started on the
 * project's wrangler without its local observability (server-env.mjs), on free loopback ports with a temporary
 * state directory, and stopped (its whole process group) at the end or when this
 * process exits.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { bin, NODE, ROOT, toolEnv } from "../../scripts/lib/proc.mjs";
import { freePort } from "../../scripts/lib/server.mjs";
import { sleep } from "./async.mjs";
import { BENCH_SERVER_ENV, benchStateDir } from "./server-env.mjs";

const ECHO_DIR = path.join(ROOT, "bench", "echo");
const START_TIMEOUT_MS = 60_000;

/** Resolves `{baseURL, stop, output, startMs}` once `/health` answers; throws (and cleans up) if it never does. */
export async function startEcho() {
  const began = performance.now();
  const port = await freePort();
  const inspectorPort = await freePort();
  const stateDir = benchStateDir("loppet-echo-");
  const tmpOfWrangler = path.join(ECHO_DIR, ".wrangler");
  const madeTmp = !existsSync(tmpOfWrangler);
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(
    NODE,
    [
      bin("wrangler"),
      "dev",
      "-c",
      path.join(ECHO_DIR, "wrangler.toml"),
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
    ],
    { cwd: ROOT, env: toolEnv(BENCH_SERVER_ENV), detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const collect = (chunk) => (output = (output + chunk.toString()).slice(-8_000));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exited = null;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exited = signal ?? code))));
  // A crash of this process must not leave wrangler running.
  const onExit = () => killGroup(child.pid, "SIGKILL");
  process.on("exit", onExit);

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    if (exited === null) {
      killGroup(child.pid, "SIGTERM");
      const gone = await Promise.race([exit.then(() => true), sleep(5_000).then(() => false)]);
      if (!gone) killGroup(child.pid, "SIGKILL");
    }
    killGroup(child.pid, "SIGKILL");
    process.off("exit", onExit);
    rmSync(stateDir, { recursive: true, force: true });
    if (madeTmp) rmSync(tmpOfWrangler, { recursive: true, force: true });
  }

  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (exited !== null) {
      await stop();
      throw new Error(`Eko-Workern slutade (${exited}) innan den svarade:\n${output}`);
    }
    try {
      const res = await fetch(`${baseURL}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) {
        return { baseURL, stop, output: () => output, startMs: Math.round(performance.now() - began) };
      }
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  await stop();
  throw new Error(`Eko-Workern svarade inte inom ${START_TIMEOUT_MS / 1000} s:\n${output}`);
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}
