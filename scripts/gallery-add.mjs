/**
 * Adds (or replaces) one year's photo gallery, for an organiser at a terminal (docs/public-site.md, "Photo galleries"):
 *
 *   node scripts/gallery-add.mjs 2025 ~/Bilder/byloppet-2025              # npm start's local bucket and database
 *   node scripts/gallery-add.mjs 2025 ~/Bilder/byloppet-2025 --check      # read every photo, store nothing
 *   node scripts/gallery-add.mjs 2025 ~/Bilder/byloppet-2025 --remote     # the deployed site (wrangler login)
 *
 * 1. Reads every photo in the folder (.jpg, .jpeg, .png, .webp, .tif, .tiff; sorted by file name, which is the
 *    gallery's order), turned upright by its EXIF orientation. A file that is not a readable photo, or is
 *    narrower than MIN_ORIGINAL_WIDTH, stops the command with its name before anything is stored.
 * 2. Writes each photo as JPEG in every width of IMAGE_WIDTHS (src/shared/gallery.ts: 160, 320, 640 for the grid;
 *    640, 1280, 1920, 2560 for the carousel) up to its own width, never wider. EXIF (camera, GPS position) is not
 *    carried over. Its name is the first 12 hex digits of the original's SHA-256: the same photo always gets the
 *    same addresses, so adding a year again uploads nothing new for photos already there, and an address never
 *    changes picture (the Worker lets browsers cache them for a year).
 * 3. Uploads the sizes to the R2 bucket `GALLERY`, then, only when every upload succeeded, replaces the year's list
 *    in D1 (what /img_{year}.txt serves: each photo's largest size, in order) in one batch. The old list is
 *    replaced whole; the old photos' objects stay in the bucket (never shown; `wrangler r2 object delete` removes
 *    them).
 *
 * Local (default): the bucket and database of `npm start` (STATE_DIR, else .wrangler/state), written through
 * wrangler's local platform proxy in one process (a few ms per object); the running server sees them at once.
 * Remote (--remote, --env production by default): `wrangler r2 object put --remote` per object, four at a time
 * (about a second each, so a few minutes for a few hundred photos), then `wrangler d1 execute --remote`. Should it
 * break off, run it again: what is there is overwritten with the same bytes, and the list is replaced.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { bin, NODE, ROOT, run, toolEnv } from "./lib/proc.mjs";
import { settingsFromEnv } from "./lib/settings.mjs";

const USAGE = `Användning: node scripts/gallery-add.mjs <år> <mapp med bilder> [flaggor]

  --check            läs och kontrollera alla bilder, spara inget
  --local            npm starts lokala bucket och databas (förval; STATE_DIR, annars .wrangler/state)
  --remote           den driftsatta sajten (kräver wrangler login), med --env production om inget --env anges
  --env NAMN         wrangler-miljö för --remote (production eller staging)`;

const PHOTO = /\.(jpe?g|png|webp|tiff?)$/i;
/** JPEG settings for every size: good enough for a 2560 px screen, small enough for a phone's grid. */
const JPEG = { quality: 80, progressive: true, mozjpeg: true };
export const CACHE_CONTROL = "public, max-age=31536000, immutable";
const REMOTE_PARALLEL = 4;

/** The shared rules (TypeScript): widths, key scheme. */
export async function galleryRules() {
  register(new URL("./lib/ts-hooks.mjs", import.meta.url));
  return import("../src/shared/gallery.ts");
}

/** Photos in `dir`, in gallery order (by file name, numbers compared as numbers). */
export function photoFiles(dir) {
  return readdirSync(dir)
    .filter((name) => PHOTO.test(name) && !name.startsWith(".") && statSync(path.join(dir, name)).isFile())
    .sort((a, b) => a.localeCompare(b, "sv", { numeric: true }))
    .map((name) => path.join(dir, name));
}

/** The first 12 hex digits of the SHA-256 of `bytes`: a photo's name. */
export function photoName(bytes) {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 12);
}

/**
 * Every size of one photo as JPEG: [{width, bytes}], in the order of `widths` (ascending, none wider than the
 * original). The original (`input`, read with sharp's `inputOptions`) is decoded and turned upright once, scaled
 * to the widest size, and every size is made from that.
 */
export async function jpegSizes(sharp, input, widths, { inputOptions = {}, jpeg = JPEG } = {}) {
  const { data, info } = await sharp(input, inputOptions)
    .rotate()
    .resize({ width: widths.at(-1), withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const sizes = [];
  for (const width of widths) {
    const bytes = await sharp(data, { raw }).resize({ width }).jpeg(jpeg).toBuffer();
    sizes.push({ width, bytes });
  }
  return sizes;
}

/** The statements that replace a year's list (the same as replaceGallery in src/worker/gallery/gallery-db.ts). */
export function listStatements(year, urls) {
  const quote = (s) => `'${String(s).replaceAll("'", "''")}'`;
  return [
    `DELETE FROM gallery_images WHERE year = ${Number(year)};`,
    ...urls.map(
      (url, i) => `INSERT INTO gallery_images (year, position, url) VALUES (${Number(year)}, ${i + 1}, ${quote(url)});`,
    ),
  ];
}

/**
 * npm start's bucket and database, opened through wrangler's platform proxy on the same persisted state as
 * `wrangler dev --persist-to STATE_DIR` (which keeps it under STATE_DIR/v3). Only the two bindings are declared
 * (a small config of their own), with the names and id of wrangler.toml, so they are the server's.
 */
export async function openLocalStore(stateDir) {
  const { getPlatformProxy, unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") }, { hideWarnings: true });
  const bucket = config.r2_buckets.find((b) => b.binding === "GALLERY");
  const db = config.d1_databases.find((d) => d.binding === "DB");
  if (!bucket || !db) throw new Error("wrangler.toml saknar R2-bucketen GALLERY eller D1-databasen DB.");
  const dir = mkdtempSync(path.join(tmpdir(), "loppet-gallery-"));
  const configPath = path.join(dir, "wrangler.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      name: "loppet-gallery-upload",
      compatibility_date: config.compatibility_date,
      r2_buckets: [{ binding: "GALLERY", bucket_name: bucket.bucket_name }],
      d1_databases: [{ binding: "DB", database_name: db.database_name, database_id: db.database_id }],
    }),
  );
  // In this process too: no telemetry, nothing fetched from the internet.
  const quiet = toolEnv();
  for (const key of ["WRANGLER_SEND_METRICS", "WRANGLER_SEND_ERROR_REPORTS", "CLOUDFLARE_CF_FETCH_ENABLED"]) {
    process.env[key] ??= quiet[key];
  }
  const proxy = await getPlatformProxy({ configPath, persist: { path: path.join(stateDir, "v3") } });
  const { GALLERY, DB } = proxy.env;
  return {
    has: async (key) => (await GALLERY.head(key)) !== null,
    put: (key, bytes) =>
      GALLERY.put(key, bytes, { httpMetadata: { contentType: "image/jpeg", cacheControl: CACHE_CONTROL } }),
    replaceList: (year, urls) => DB.batch(listStatements(year, urls).map((s) => DB.prepare(s))),
    close: async () => {
      await proxy.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` over `items`, `parallel` at a time; rejects with the first failure. */
export async function pool(items, parallel, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

let progressShown = false;

/** One line that counts up in a terminal (nothing when the output is a file); null ends it. */
function progress(text) {
  if (!process.stdout.isTTY) return;
  if (text === null) {
    if (progressShown) process.stdout.write("\n");
    progressShown = false;
    return;
  }
  process.stdout.write(`\r${text}`);
  progressShown = true;
}

function fail(message, code = 1) {
  progress(null);
  console.error(message);
  process.exit(code);
}

async function main() {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        check: { type: "boolean", default: false },
        local: { type: "boolean", default: false },
        remote: { type: "boolean", default: false },
        env: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    fail(`${err.message}\n\n${USAGE}`);
  }
  const { values: opts, positionals } = args;
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 2) fail(`Ange året och mappen med bilderna.\n\n${USAGE}`);
  if (opts.local && opts.remote) fail("Välj --local eller --remote, inte båda.");
  if (opts.env && !opts.remote) fail("--env gäller bara med --remote.");
  const [yearArg, dirArg] = positionals;
  const year = /^\d{4}$/.test(yearArg) ? Number(yearArg) : NaN;
  const thisYear = new Date().getFullYear();
  if (!(year >= 1990 && year <= thisYear))
    fail(`Året ska vara ett årtal mellan 1990 och ${thisYear}, inte "${yearArg}".`);
  const dir = path.resolve(dirArg);
  let files;
  try {
    files = photoFiles(dir);
  } catch (err) {
    fail(`Kan inte läsa mappen ${dir}: ${err.message}`);
  }
  if (files.length === 0) fail(`${dir}: inga bilder (.jpg, .jpeg, .png, .webp, .tif). Inget har sparats.`);

  const { galleryKey, galleryUrl, MIN_ORIGINAL_WIDTH, widthsFor } = await galleryRules();
  const { default: sharp } = await import("sharp");
  const work = mkdtempSync(path.join(tmpdir(), "loppet-gallery-sizes-"));
  try {
    // 1–2: every photo checked and every size written to a scratch folder before anything is uploaded.
    const photos = [];
    const seen = new Map();
    for (const [i, file] of files.entries()) {
      const label = path.basename(file);
      const bytes = readFileSync(file);
      let width;
      try {
        const meta = await sharp(bytes).metadata();
        // EXIF orientations 5–8 are turned a quarter: the upright photo's width is the stored height.
        width = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width;
      } catch (err) {
        fail(`${label}: kan inte läsas som en bild (${err.message}). Inget har sparats.`);
      }
      if (!(width >= MIN_ORIGINAL_WIDTH)) {
        fail(`${label}: bara ${width} px bred, minst ${MIN_ORIGINAL_WIDTH} px behövs. Inget har sparats.`);
      }
      const name = photoName(bytes);
      if (seen.has(name)) {
        console.warn(`${label}: samma bild som ${seen.get(name)}, tas med en gång.`);
        continue;
      }
      seen.set(name, label);
      const sizes = await jpegSizes(sharp, bytes, widthsFor(width));
      const objects = sizes.map(({ width: w, bytes: jpeg }) => {
        const scratch = path.join(work, `${name}-${w}.jpg`);
        writeFileSync(scratch, jpeg);
        return { key: galleryKey(year, name, w), file: scratch, bytes: jpeg.length };
      });
      photos.push({ label, url: galleryUrl(year, name, sizes.at(-1).width), objects });
      progress(`${i + 1}/${files.length} bilder förberedda`);
    }
    progress(null);
    const objects = photos.flatMap((p) => p.objects);
    const kb = Math.round(objects.reduce((sum, o) => sum + o.bytes, 0) / 1024);
    const what = `${photos.length} bilder för ${year} (${objects.length} storlekar, ${kb} kB)`;
    if (opts.check) {
      console.log(`Alla bilder går att läsa: ${what}. Inget sparat (--check).`);
      return;
    }

    // 3: the objects, then the list.
    const urls = photos.map((p) => p.url);
    if (opts.remote) await uploadRemote(opts.env ?? "production", year, objects, urls, work);
    else await uploadLocal(settingsFromEnv().stateDir, year, objects, urls);
    console.log(
      `Klart: ${what} i ${opts.remote ? `den driftsatta sajten (${opts.env ?? "production"})` : "den lokala sajten"}. ` +
        `/galleri/${year} visar dem nu, /img_${year}.txt listar dem.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function uploadLocal(stateDir, year, objects, urls) {
  const store = await openLocalStore(stateDir);
  try {
    await pool(objects, 8, (o) => store.put(o.key, readFileSync(o.file)));
    await store.replaceList(year, urls);
  } finally {
    await store.close();
  }
}

async function uploadRemote(env, year, objects, urls, work) {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml"), env }, { hideWarnings: true });
  const bucket = config.r2_buckets.find((b) => b.binding === "GALLERY")?.bucket_name;
  if (!bucket) fail(`wrangler.toml saknar R2-bucketen GALLERY i [env.${env}].`);
  let done = 0;
  await pool(objects, REMOTE_PARALLEL, async (o) => {
    // prettier-ignore
    await run(NODE, [bin("wrangler"), "r2", "object", "put", `${bucket}/${o.key}`, "--file", o.file,
      "--content-type", "image/jpeg", "--cache-control", CACHE_CONTROL, "--remote", "-c", path.join(ROOT, "wrangler.toml"), "--env", env], { stdio: ["ignore", "ignore", "inherit"] });
    progress(`${++done}/${objects.length} storlekar uppladdade`);
  });
  progress(null);
  const sqlFile = path.join(work, "list.sql");
  writeFileSync(sqlFile, listStatements(year, urls).join("\n") + "\n");
  await run(NODE, [
    bin("wrangler"),
    "d1",
    "execute",
    "DB",
    "--remote",
    "--env",
    env,
    "-c",
    path.join(ROOT, "wrangler.toml"),
    "--file",
    sqlFile,
  ]);
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  // wrangler needs Node 22 and the shared rules Node 22.18: an older Node hands the command to the project's own.
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 18)) {
    if (NODE === process.execPath) fail("Node 22.18 eller senare behövs (kör npm install först).");
    await run(NODE, [process.argv[1], ...process.argv.slice(2)], { cwd: process.cwd() }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  } else {
    await main().catch((err) => fail(`Det gick inte att lägga till galleriet: ${err.message}`, 2));
  }
}
