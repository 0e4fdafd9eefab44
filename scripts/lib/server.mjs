/**
 * Runs the real `npm start` path (scripts/start.mjs: build, migrate, seed, wrangler dev) on a free port with a
 * fresh state directory, for the e2e tests and the benchmarks, and stops it again with everything it started.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { NODE, ROOT } from "./proc.mjs";
import { withoutVarOverrides } from "./settings.mjs";

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return listenOnce(0);
}

/**
 * A free port below Linux's ephemeral range (32768–60999), for a server that binds it only later (the browser
 * tests' servers, chosen before their build): a process that asks the OS for any port in the meantime (a workerd
 * test runtime) is never given one from here, so it cannot take it first.
 */
export async function freePortForLater() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await listenOnce(port).then(
      () => true,
      () => false,
    );
    if (free) return port;
  }
}

function listenOnce(port) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(port, "127.0.0.1", () => {
      const { port: bound } = probe.address();
      probe.close(() => resolve(bound));
    });
  });
}

/** The last part of the server's output, for the error message when it does not come up. */
const KEEP_OUTPUT = 12_000;

/**
 * Starts the server and resolves once `readyPath` answers 200. `echo` streams the server's output to this
 * process's stderr (otherwise it is kept only for error messages). `build: false` serves the bundle already
 * in dist/, for a second server in a run that has built it once; `distDir` another built bundle (no build).
 * `stateDir` reuses a state directory (an earlier server's, stopped: a deploy), which stop() then leaves in place.
 * `env` adds variables for the build and the server (a local secret such as CAMPAIGN_CODES, lib/settings.mjs).
 * @param {{ port?: number, now?: string, build?: boolean, distDir?: string, stateDir?: string, readyPath?: string,
 *   timeoutMs?: number, echo?: boolean, env?: Record<string, string> }} [options]
 */
export async function startLocalServer({
  port,
  now,
  build = true,
  distDir,
  stateDir: givenStateDir,
  readyPath = "/api/config",
  timeoutMs = 170_000,
  echo = false,
  env: extraEnv = {},
} = {}) {
  port ??= await freePort();
  const stateDir = givenStateDir ?? mkdtempSync(path.join(tmpdir(), "loppet-state-"));
  const baseURL = `http://localhost:${port}`;
  const env = { ...withoutVarOverrides(), ...extraEnv, PORT: String(port), STATE_DIR: stateDir };
  if (distDir) {
    env.DIST_DIR = distDir;
    build = false;
  } else delete env.DIST_DIR;
  if (now) env.NOW = now;
  else delete env.NOW;

  // Its own process group, so stopping it also stops wrangler, workerd and any build still running.
  const child = spawn(NODE, [path.join(ROOT, "scripts", "start.mjs"), ...(build ? [] : ["--no-build"])], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-KEEP_OUTPUT);
    if (echo) process.stderr.write(chunk);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exited = null;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exited = signal ?? code))));

  async function stop() {
    if (exited === null) {
      killGroup(child.pid, "SIGTERM");
      const gone = await Promise.race([exit.then(() => true), sleep(10_000).then(() => false)]);
      if (!gone) killGroup(child.pid, "SIGKILL");
    }
    // workerd may outlive start.mjs by a moment; give the group a last signal before removing its files.
    killGroup(child.pid, "SIGKILL");
    if (!givenStateDir) rmSync(stateDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) {
      await stop();
      throw new Error(`npm start slutade (${exited}) innan servern svarade:\n${output}`);
    }
    try {
      const res = await fetch(baseURL + readyPath, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return { baseURL, port, stateDir, stop, output: () => output };
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  await stop();
  throw new Error(`Servern svarade inte på ${readyPath} inom ${timeoutMs / 1000} s:\n${output}`);
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
