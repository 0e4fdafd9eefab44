/**
 * Build step after `vite build` and the pre-render (`npm run build`): the two service workers and the admin area's
 * start pages, from Vite's import graph (dist/client/.vite/manifest.json, moved to dist/vite-manifest.json so it
 * is not served).
 *
 * 1. What each worker precaches (src/web/sw/names.ts for where each is served):
 *    - /admin/sw.js: the entry and every admin screen with what they import (static imports only, so a screen's own
 *      lazy extras such as the analytics page's chart library stay out), the admin start pages, the pictures of the
 *      volunteers' guide ('Hjälp', public/hjalp/), the icon;
 *    - /tidtagning-sw.js: the entry and the stopwatch with what it imports, the pre-rendered /tidtagning, the icon.
 *    Built files carry content hashes in their names and are listed without a revision; pages with the hash of
 *    their content.
 * 2. The admin area's start pages, copies of the empty SPA shell that name at once what the screen will need, so
 *    a phone fetches it in parallel with the entry instead of one step after another (entry → admin shell →
 *    config → race screen → race): admin/_shell.html (the admin shell's code, and GET /api/config) and
 *    admin/_race-shell.html (that, and the race screen's code). The Worker answers /admin/… deep links with them
 *    (src/worker/site/spa-fallback.ts), adding the race's own GET to the race screen's.
 * 3. Each worker bundled by Vite (Workbox inside, the precache list as a constant) into dist/client.
 *
 * `node scripts/service-workers.mjs [distDir]`: another build directory than dist/ (the browser tests make a
 * second deploy from a copy).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "vite";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.resolve(process.argv[2] ?? path.join(root, "dist"));
const clientDir = path.join(distDir, "client");
const manifestPath = path.join(distDir, "vite-manifest.json");

const ADMIN_SHELL = "src/web/app/admin-shell.tsx";
const RACE_SCREEN = "src/web/features/race-day/race-page.tsx";
/** Vite's own name for the HTML entry. */
const ENTRY = "index.html";
const ICON = "/favicon.svg";
/** The folder of dist/client (from public/) with the volunteers' guide's pictures. */
const GUIDE_PICTURES = "hjalp";

function readManifest() {
  const built = path.join(clientDir, ".vite", "manifest.json");
  if (existsSync(built)) {
    renameSync(built, manifestPath);
    rmSync(path.join(clientDir, ".vite"), { recursive: true, force: true });
  }
  if (!existsSync(manifestPath)) {
    throw new Error(`${manifestPath} saknas: kör \`vite build\` först (npm run build gör allt).`);
  }
  return JSON.parse(readFileSync(manifestPath, "utf8"));
}

const manifest = readManifest();
const chunk = (key) => {
  const found = manifest[key];
  if (!found) throw new Error(`Vites manifest saknar ${key}: har filen flyttats? Ändra scripts/service-workers.mjs.`);
  return found;
};

/** Every built file (JavaScript and CSS) `keys` load before they run: their static imports, all the way down. */
function closure(...keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const c = chunk(key);
    files.add(c.file);
    for (const css of c.css ?? []) files.add(css);
    for (const imported of c.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

const entry = chunk(ENTRY);
/** The screens the entry's routes load lazily, whose code is built into assets/{folder}/. */
const screensIn = (folder) =>
  (entry.dynamicImports ?? []).filter((key) => chunk(key).file.startsWith(`assets/${folder}/`));

const hashOf = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** A page of dist/client as a precache entry: its address (html_handling drops ".html") and its content's hash. */
function pageEntry(file) {
  const text = readFileSync(path.join(clientDir, file));
  return { url: "/" + file.replace(/\.html$/, ""), revision: hashOf(text) };
}

/**
 * The volunteers' guide's pictures (public/hjalp/, made by scripts/guide-screenshots.mjs), with the hash of their
 * content: the guide (/admin/hjalp) is read on the field, where the signal may be gone.
 */
function guidePictures() {
  const dir = path.join(clientDir, GUIDE_PICTURES);
  // Only before the first screenshots were taken (the pictures are committed).
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".webp"))
    .sort()
    .map((file) => ({ url: `/${GUIDE_PICTURES}/${file}`, revision: hashOf(readFileSync(path.join(dir, file))) }));
}

/**
 * The scripts these files start by address rather than import: Vite lists a `new Worker(new URL(…))` file among
 * its chunk's assets (Målfoto's camera worker, src/web/features/race-day/finish-camera-worker.ts). Precached like
 * the code that starts them, so the camera works on a phone that has lost its signal. Not in the start pages:
 * they are fetched when started, never preloaded.
 */
function scriptAssets(files) {
  const byFile = new Map(Object.values(manifest).map((c) => [c.file, c]));
  return [...files].flatMap((file) => (byFile.get(file)?.assets ?? []).filter((a) => a.endsWith(".js")));
}

function fileEntries(files) {
  return [...files].sort().map((file) => ({ url: `/${file}`, revision: null }));
}

/** The SPA shell with what a screen needs named in its <head>: module preloads, stylesheets and data fetches. */
function startPage(shell, { code, data }) {
  // The data first, right after the charset: small, and last in the chain, it must not queue behind the code for
  // a connection. Credentials 'same-origin' (crossorigin) like the app's own fetch, so that fetch gets this answer.
  const fetches = data.map((url) => `\n    <link rel="preload" as="fetch" crossorigin href="${url}">`).join("");
  const tags = [...code]
    .sort()
    .map((file) =>
      file.endsWith(".css")
        ? `<link rel="stylesheet" crossorigin href="/${file}">`
        : `<link rel="modulepreload" crossorigin href="/${file}">`,
    );
  const charset = /<meta charset="utf-8" \/>/;
  if (!charset.test(shell)) throw new Error('dist/client/index.html har ingen <meta charset="utf-8" />.');
  return shell
    .replace(charset, (tag) => tag + fetches)
    .replace(/\n\s*<\/head>/, () => `\n    ${tags.join("\n    ")}\n  </head>`);
}

async function bundleWorker(source, precache, target) {
  const outDir = path.join(distDir, "sw-build");
  await build({
    configFile: false,
    root,
    mode: "production",
    logLevel: "warn",
    publicDir: false,
    define: {
      __PRECACHE__: JSON.stringify(precache),
      // Workbox's development logging is behind this.
      "process.env.NODE_ENV": JSON.stringify("production"),
    },
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: true,
      lib: { entry: path.join(root, source), formats: ["iife"], name: "loppetServiceWorker", fileName: () => "sw.js" },
    },
  });
  mkdirSync(path.dirname(path.join(clientDir, target)), { recursive: true });
  cpSync(path.join(outDir, "sw.js"), path.join(clientDir, target));
  rmSync(outDir, { recursive: true, force: true });
  return readFileSync(path.join(clientDir, target)).length;
}

async function main() {
  const shell = readFileSync(path.join(clientDir, "index.html"), "utf8");
  if (!shell.includes('<div id="root"></div>')) throw new Error("dist/client/index.html är inte det tomma skalet.");

  const entryFiles = closure(ENTRY);
  const without = (files, known) => new Set([...files].filter((f) => !known.has(f)));
  const adminShellCode = without(closure(ADMIN_SHELL), entryFiles);
  const raceScreenCode = without(closure(ADMIN_SHELL, RACE_SCREEN), entryFiles);
  mkdirSync(path.join(clientDir, "admin"), { recursive: true });
  writeFileSync(
    path.join(clientDir, "admin", "_shell.html"),
    startPage(shell, { code: adminShellCode, data: ["/api/config"] }),
  );
  writeFileSync(
    path.join(clientDir, "admin", "_race-shell.html"),
    startPage(shell, { code: raceScreenCode, data: ["/api/config"] }),
  );

  const adminCode = closure(ENTRY, ...screensIn("admin"));
  const adminPrecache = [
    ...fileEntries(new Set([...adminCode, ...scriptAssets(adminCode)])),
    pageEntry("admin/_shell.html"),
    pageEntry("admin/_race-shell.html"),
    ...guidePictures(),
    { url: ICON, revision: hashOf(readFileSync(path.join(clientDir, ICON.slice(1)))) },
  ];
  const timingPrecache = [
    ...fileEntries(closure(ENTRY, ...screensIn("timing"))),
    pageEntry("tidtagning.html"),
    { url: ICON, revision: hashOf(readFileSync(path.join(clientDir, ICON.slice(1)))) },
  ];

  const adminBytes = await bundleWorker("src/web/sw/worker/admin.ts", adminPrecache, "admin/sw.js");
  const timingBytes = await bundleWorker("src/web/sw/worker/timing.ts", timingPrecache, "tidtagning-sw.js");
  const kB = (n) => (n / 1024).toFixed(1);
  console.log(`service worker: /admin/sw.js (${kB(adminBytes)} kB), ${adminPrecache.length} filer i förväg`);
  console.log(`service worker: /tidtagning-sw.js (${kB(timingBytes)} kB), ${timingPrecache.length} filer i förväg`);
}

await main();
