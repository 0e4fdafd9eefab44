/**
 * Child processes for the local scripts (start, e2e harness, benchmarks). Every tool runs on the project's
 * Node 22 (the `node` devDependency): wrangler and Vite refuse the Node 20 that these machines ship, and a
 * developer may well type `node scripts/start.mjs` with the system Node.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

const major = Number(process.versions.node.split(".")[0]);
const projectNode = path.join(ROOT, "node_modules", "node", "bin", "node");

/** The Node binary every child runs on: this one when it is new enough, else the project's own. */
export const NODE = major >= 22 || !existsSync(projectNode) ? process.execPath : projectNode;

/** A package's CLI entry, run as `NODE <entry> …` so no shebang can pick the system Node. */
export function bin(name) {
  const entries = { wrangler: "wrangler/bin/wrangler.js", vite: "vite/bin/vite.js" };
  return path.join(ROOT, "node_modules", entries[name]);
}

/**
 * The environment for the tools: project binaries first on PATH (so `npm run build`'s own children find
 * Node 22 too), non-interactive, and nothing leaving the machine at run time: no telemetry, no `Request.cf`
 * download (workers.cloudflare.com), no update check (the banner's). Node keeps the code it compiled in
 * node_modules/.cache (NODE_COMPILE_CACHE; a file that changed is compiled again): each wrangler process loads all
 * of wrangler, and `npm start` runs five.
 */
export function toolEnv(extra = {}) {
  const binDirs = [path.join(ROOT, "node_modules", ".bin"), path.dirname(NODE)];
  return {
    ...process.env,
    PATH: [...binDirs, process.env.PATH ?? ""].join(path.delimiter),
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(ROOT, "node_modules", ".cache", "node-compile"),
    ...extra,
  };
}

/** The children alive right now, so a signal to the parent reaches them. */
const alive = new Set();

/**
 * Starts a child with inherited output. The promise resolves when it exits with 0 and rejects (naming the
 * command) otherwise.
 */
export function run(cmd, args, options = {}) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: "inherit", env: toolEnv(), ...options });
  alive.add(child);
  const done = new Promise((resolve, reject) => {
    child.on("error", (err) => reject(new Error(`${cmd} ${args.join(" ")}: ${err.message}`)));
    child.on("exit", (code, signal) => {
      alive.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(cmd)} ${args.join(" ")} slutade med ${signal ?? `kod ${code}`}`));
    });
  });
  return Object.assign(done, { child });
}

/** Runs a child to completion and resolves with its stdout (stderr passes through). */
export async function output(cmd, args, options = {}) {
  let stdout = "";
  const running = run(cmd, args, { stdio: ["ignore", "pipe", "inherit"], ...options });
  running.child.stdout.on("data", (chunk) => (stdout += chunk));
  await running;
  return stdout;
}

/** Forwards SIGINT/SIGTERM to the running children and exits once they have gone. */
export function forwardSignals() {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      const code = 128 + constants.signals[signal];
      if (alive.size === 0) process.exit(code);
      for (const child of alive) {
        child.kill(signal);
        child.on("exit", () => alive.size === 0 && process.exit(code));
      }
    });
  }
}
