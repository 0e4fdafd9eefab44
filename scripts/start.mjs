/**
 * `npm start`: builds the production bundle and serves it on workerd with local D1 and Durable Objects,
 * migrated and seeded with demo data. `npm run dev` (`--dev`) serves the sources with Vite's hot reload instead.
 * `--no-build` serves the bundle already in dist/ (a second server in one test run, a quick restart); with
 * DIST_DIR, the bundle in that directory instead (the browser tests serve a second deploy from a copy).
 *
 * Environment: PORT (default 8787), STATE_DIR (local D1/DO state, default .wrangler/state), NOW (ISO time
 * where the server clock starts; it then advances normally; default: registration open, early prices), and any
 * variable of wrangler.toml's [vars] by its own name (SWISH_BASE_URL, GOOGLE_JWKS_URL …; lib/settings.mjs).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bin, forwardSignals, NODE, output, ROOT, run, toolEnv } from "./lib/proc.mjs";
import { buildSite } from "./lib/build.mjs";
import { serverVars, settingsFromEnv } from "./lib/settings.mjs";

const dev = process.argv.includes("--dev");
const skipBuild = process.argv.includes("--no-build");

let settings;
try {
  settings = settingsFromEnv();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const { port, now, stateDir, origin } = settings;

forwardSignals();

const wrangler = (args) => run(NODE, [bin("wrangler"), ...args]);
/** A `wrangler d1` command on the local database in STATE_DIR, as the source config names it. */
const d1 = (...args) => ["d1", ...args, "--local", "--persist-to", stateDir, "-c", "wrangler.toml"];
const script = (name) => path.join(ROOT, "scripts", name);

function say(message) {
  console.log(`\n▸ ${message}`);
}

/**
 * The demo gallery's photos into the local R2 bucket (scripts/gallery-images.mjs; a bucket that has them is left
 * alone). The SVGs an earlier version served from public/demo-galleri are no longer used: removed, so the build
 * does not copy them.
 */
async function galleryImages() {
  rmSync(path.join(ROOT, "public", "demo-galleri"), { recursive: true, force: true });
  say("Demobilder till galleriet (lokal R2-bucket)");
  await run(NODE, [script("gallery-images.mjs")], { env: toolEnv({ STATE_DIR: stateDir }) });
}

async function build() {
  say("Bygger (vite build + förrendering)");
  await buildSite();
}

async function migrate() {
  say(`Migrerar den lokala databasen (${path.relative(ROOT, stateDir) || "."})`);
  await wrangler(d1("migrations", "apply", "DB"));
}

/**
 * Historical results exist only as demo data locally, so they tell whether this state was seeded. The seed
 * empties the demo tables before filling them, so it must not run again over registrations made since.
 */
async function isSeeded() {
  const json = await output(NODE, [
    bin("wrangler"),
    ...d1("execute", "DB", "--json", "--command", "SELECT COUNT(*) AS n FROM results"),
  ]);
  return JSON.parse(json)[0].results[0].n > 0;
}

async function seed() {
  if (await isSeeded()) {
    console.log("\n▸ Demodata finns redan (töm STATE_DIR för att börja om)");
    return;
  }
  say("Lägger in demodata");
  const dir = mkdtempSync(path.join(tmpdir(), "loppet-seed-"));
  try {
    const sql = path.join(dir, "seed.sql");
    await run(NODE, [script("seed.mjs"), sql]);
    // Its stdout is every statement's result as JSON: noise here; failures go to stderr.
    await output(NODE, [bin("wrangler"), ...d1("execute", "DB", "--file", sql)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `vite dev` reads the Worker's variables from .dev.vars only. Our keys go in for as long as the dev server
 * runs, beside any line a developer keeps there; on exit the file is put back as it was, because the Workers
 * tests and `vite build` read it too and must not inherit a shifted clock or another port.
 */
function useDevVars(vars) {
  const file = path.join(ROOT, ".dev.vars");
  const original = existsSync(file) ? readFileSync(file, "utf8") : null;
  const kept = (original ?? "")
    .split("\n")
    .filter((line) => line.trim() && !Object.hasOwn(vars, line.split("=")[0].trim()));
  const ours = Object.entries(vars).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  writeFileSync(file, [...kept, ...ours].join("\n") + "\n");
  process.on("exit", () => (original === null ? rmSync(file, { force: true }) : writeFileSync(file, original)));
}

function serve() {
  const vars = serverVars(settings);
  if (dev) {
    // DEV_SERVER tells the Worker that Vite serves the pages: their inline React refresh preamble is then allowed
    // (src/shared/security-headers.ts).
    useDevVars({ ...vars, DEV_SERVER: "vite" });
    // STATE_DIR reaches vite.config.ts's cloudflare({ persistState }) through the environment.
    return run(NODE, [bin("vite"), "dev", "--port", String(port), "--strictPort"], {
      env: toolEnv({ STATE_DIR: stateDir }),
    });
  }
  return wrangler([
    "dev",
    "-c",
    path.join(process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : "dist", "loppet", "wrangler.json"),
    "--port",
    String(port),
    "--persist-to",
    stateDir,
    "--show-interactive-dev-session=false",
    ...Object.entries(vars).flatMap(([key, value]) => ["--var", `${key}:${value}`]),
  ]);
}

/** Says where the site is once it answers (the server's own banner scrolls away among the build output). */
async function announce(server) {
  let running = true;
  server.catch(() => {}).finally(() => (running = false));
  while (running) {
    try {
      const res = await fetch(`${origin}/api/health`);
      if (res.ok) {
        console.log(`\n✔ Sajten körs på ${origin}/ (serverns klocka startade på ${now}). Avsluta med Ctrl+C.\n`);
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

try {
  if (!dev && !skipBuild) await build();
  await migrate();
  await seed();
  await galleryImages();
  say(dev ? `Startar vite dev på ${origin}` : `Startar wrangler dev på ${origin}`);
  const server = serve();
  void announce(server);
  await server;
} catch (err) {
  console.error(`\n✘ ${err.message}`);
  process.exit(1);
}
