/**
 * The demo gallery, made on this machine (no real photos, nothing downloaded), so `npm start` has a working
 * gallery offline: each photo of scripts/seed/gallery-plan.mjs (the same plan the seed's year lists come from) is
 * an SVG landscape with runners (galleryImageSvg), drawn by sharp as a 1280 px JPEG "original" and written in the
 * gallery's sizes up to it (160, 320, 640, 1280) into the local R2 bucket of STATE_DIR, exactly where
 * scripts/gallery-add.mjs puts an organiser's photos.
 *
 *   node scripts/gallery-images.mjs          (npm start runs it; STATE_DIR as for npm start)
 *
 * The JPEGs are kept in .wrangler/demo-galleri-{hash of this code}/ and reused by later runs, so a fresh
 * STATE_DIR costs only the upload (about 5 s; the first run on a machine about 11 s, drawing and uploading
 * overlapping). A bucket that already has them (the DONE_KEY marker, written last) is left alone.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { jpegSizes, openLocalStore, pool } from "./gallery-add.mjs";
import { ROOT } from "./lib/proc.mjs";
import { settingsFromEnv } from "./lib/settings.mjs";
import { DEMO_WIDTHS, galleryPlan } from "./seed/gallery-plan.mjs";
import { createRandom } from "./seed/random.mjs";

const WIDTH = 640;
const HEIGHT = 427;

const SKIES = [
  ["#8ec5ff", "#e0f0ff"],
  ["#ffcf8a", "#fff1d6"],
  ["#a9d8f5", "#f4fbff"],
  ["#c7b8ff", "#fdf0ff"],
  ["#9fdcc8", "#effcf6"],
];
const HILLS = ["#5e9f5a", "#4d8a4f", "#7bb36b", "#6a9a4a", "#3f7a52"];
const SHIRTS = ["#f59e0b", "#6366f1", "#ef4444", "#10b981", "#0ea5e9", "#ec4899", "#facc15"];

function runner(random, x, ground, scale) {
  const shirt = random.pick(SHIRTS);
  const h = 60 * scale;
  const head = 7 * scale;
  const stride = random.int(8, 16) * scale;
  const top = ground - h;
  return [
    `<g stroke="#1f2937" stroke-width="${(4 * scale).toFixed(1)}" stroke-linecap="round" fill="none">`,
    `<path d="M${x} ${top + h * 0.55} L${x - stride} ${ground} M${x} ${top + h * 0.55} L${x + stride * 0.8} ${ground - 4 * scale}"/>`,
    `<path d="M${x} ${top + h * 0.25} L${x - stride * 0.8} ${top + h * 0.45} M${x} ${top + h * 0.25} L${x + stride} ${top + h * 0.35}"/>`,
    `</g>`,
    `<path d="M${x} ${top + h * 0.18} L${x} ${top + h * 0.58}" stroke="${shirt}" stroke-width="${(9 * scale).toFixed(1)}" stroke-linecap="round"/>`,
    `<circle cx="${x}" cy="${(top + h * 0.08).toFixed(1)}" r="${head.toFixed(1)}" fill="#f2c9a0"/>`,
  ].join("");
}

export function galleryImageSvg(year, index) {
  const random = createRandom(year * 100 + index);
  const [skyTop, skyBottom] = random.pick(SKIES);
  const hill1 = random.pick(HILLS);
  const hill2 = random.pick(HILLS);
  const sunX = random.int(60, 580);
  const ground = random.int(330, 370);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Byloppet ${year}, bild ${index}">`,
    `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient></defs>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#s)"/>`,
    `<circle cx="${sunX}" cy="${random.int(50, 110)}" r="${random.int(22, 38)}" fill="#fde68a"/>`,
    `<path d="M0 ${ground - random.int(60, 120)} Q ${random.int(120, 260)} ${ground - random.int(140, 200)} ${random.int(300, 380)} ${ground - random.int(50, 90)} T ${WIDTH} ${ground - random.int(70, 130)} V ${HEIGHT} H 0 Z" fill="${hill1}" opacity="0.75"/>`,
    `<path d="M0 ${ground - random.int(20, 50)} Q ${random.int(200, 420)} ${ground - random.int(70, 110)} ${WIDTH} ${ground - random.int(10, 40)} V ${HEIGHT} H 0 Z" fill="${hill2}"/>`,
    `<rect y="${ground}" width="${WIDTH}" height="${HEIGHT - ground}" fill="#9ca3af"/>`,
    `<path d="M0 ${ground + 22} H ${WIDTH}" stroke="#f9fafb" stroke-width="3" stroke-dasharray="26 18"/>`,
  ];
  const count = random.int(1, 5);
  for (let i = 0; i < count; i++) {
    const x = Math.round(((i + 0.5) * WIDTH) / count + random.int(-30, 30));
    parts.push(runner(random, x, ground + random.int(8, 40), random.int(80, 120) / 100));
  }
  parts.push(
    `<rect x="18" y="18" rx="8" width="118" height="44" fill="#ffffff" opacity="0.85"/>`,
    `<text x="77" y="50" text-anchor="middle" font-family="system-ui, sans-serif" font-size="28" font-weight="700" fill="#b45309">${year}</text>`,
    `</svg>`,
  );
  return parts.join("\n") + "\n";
}

/** Where the generated JPEGs are kept between runs, named by a hash of the code that makes them. */
function cacheDir() {
  const hash = createHash("sha256");
  for (const file of ["gallery-images.mjs", "seed/gallery-plan.mjs", "gallery-add.mjs"]) {
    hash.update(readFileSync(path.join(ROOT, "scripts", file)));
  }
  return path.join(ROOT, ".wrangler", `demo-galleri-${hash.digest("hex").slice(0, 10)}`);
}

/** Marks a bucket that holds every demo photo (not a photo key, so the Worker never serves it). */
const DONE_KEY = "demo/klar";

/**
 * Every demo photo's sizes into `store`: read from `dir` when an earlier run made them, else drawn now (and kept
 * there). Drawing and uploading overlap, a few photos at a time.
 */
async function putDemoPhotos(store, dir) {
  const { default: sharp } = await import("sharp");
  const photos = galleryPlan().flatMap(({ year, files }) => files.map((name, i) => ({ year, name, index: i + 1 })));
  let made = 0;
  await pool(photos, 4, async ({ year, name, index }) => {
    const files = DEMO_WIDTHS.map((w) => path.join(dir, String(year), `${name}-${w}.jpg`));
    let sizes;
    if (files.every((f) => existsSync(f))) {
      sizes = files.map((f) => ({ bytes: readFileSync(f) }));
    } else {
      // The SVG is 640 px wide: drawn at twice its density it is a 1280 px "original".
      sizes = await jpegSizes(sharp, Buffer.from(galleryImageSvg(year, index)), DEMO_WIDTHS, {
        inputOptions: { density: 72 * (DEMO_WIDTHS.at(-1) / WIDTH) },
        jpeg: { quality: 72 },
      });
      mkdirSync(path.join(dir, String(year)), { recursive: true });
      sizes.forEach((size, i) => writeFileSync(files[i], size.bytes));
      made++;
    }
    await Promise.all(DEMO_WIDTHS.map((w, i) => store.put(`${year}/${name}-${w}.jpg`, sizes[i].bytes)));
  });
  return { photos: photos.length, objects: photos.length * DEMO_WIDTHS.length, made };
}

async function main() {
  const started = Date.now();
  const { stateDir } = settingsFromEnv();
  const store = await openLocalStore(stateDir);
  try {
    if (await store.has(DONE_KEY)) {
      console.log("Demobilderna finns redan i den lokala bucketen");
      return;
    }
    const dir = cacheDir();
    // Older generations (another version of this code) are of no more use.
    for (const old of existsSync(path.dirname(dir)) ? readdirSync(path.dirname(dir)) : []) {
      if (old.startsWith("demo-galleri-") && path.join(path.dirname(dir), old) !== dir) {
        rmSync(path.join(path.dirname(dir), old), { recursive: true, force: true });
      }
    }
    const { photos, objects, made } = await putDemoPhotos(store, dir);
    await store.put(DONE_KEY, new Uint8Array(0));
    console.log(
      `Demogalleri: ${photos} bilder (${objects} storlekar, ${made} nyritade) i den lokala bucketen på ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(path.resolve(process.argv[1] ?? "")).href) {
  await main().catch((err) => {
    console.error(`Demogalleriet kunde inte skapas: ${err.message}`);
    process.exit(1);
  });
}
