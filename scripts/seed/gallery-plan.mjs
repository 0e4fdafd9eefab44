/**
 * Which demo gallery photos exist: shared by the seed (the year lists in D1, served as /img_{year}.txt) and
 * scripts/gallery-images.mjs (the JPEGs in the local R2 bucket), so the lists and the photos always match.
 * The addresses follow src/shared/gallery.ts: `/galleri-bilder/{year}/{name}-{width}.jpg`, the list holding each
 * photo's largest size (test/shared/gallery.test.ts checks they parse).
 */
import { createRandom } from "./random.mjs";

export const GALLERY_FIRST_YEAR = 2014;
export const GALLERY_LAST_YEAR = 2024;
/** Where the Worker serves the photos (GALLERY_IMAGE_PREFIX in src/shared/gallery.ts). */
export const GALLERY_BASE = "/galleri-bilder";
/** The demo photos' sizes: the shared widths up to 1280 px (the demo's "originals" are 1280 px wide). */
export const DEMO_WIDTHS = [160, 320, 640, 1280];

/** [{year, files: ['01', …]}] for 2014–2024, 8–20 photos a year; `files` are the photos' names. */
export function galleryPlan() {
  const random = createRandom(20140913);
  const plan = [];
  for (let year = GALLERY_FIRST_YEAR; year <= GALLERY_LAST_YEAR; year++) {
    const count = random.int(8, 20);
    plan.push({ year, files: Array.from({ length: count }, (_, i) => String(i + 1).padStart(2, "0")) });
  }
  return plan;
}

/** The address of one size of a demo photo. */
export function galleryImageUrl(year, name, width) {
  return `${GALLERY_BASE}/${year}/${name}-${width}.jpg`;
}

/** The list line for a demo photo: its largest size. */
export function galleryUrl(year, name) {
  return galleryImageUrl(year, name, DEMO_WIDTHS.at(-1));
}
