/**
 * Which demo gallery images exist: shared by the seed (the URLs in D1) and scripts/gallery-images.mjs (the
 * files), so the lists and the files always match.
 */
import { createRandom } from "./random.mjs";

export const GALLERY_FIRST_YEAR = 2014;
export const GALLERY_LAST_YEAR = 2024;
/** Public path of the generated images; the start script writes them to public/demo-galleri before the build. */
export const GALLERY_BASE = "/demo-galleri";

/** [{year, files: ['01.svg', …]}] for 2014–2024, 8–20 images a year. */
export function galleryPlan() {
  const random = createRandom(20140913);
  const plan = [];
  for (let year = GALLERY_FIRST_YEAR; year <= GALLERY_LAST_YEAR; year++) {
    const count = random.int(8, 20);
    plan.push({ year, files: Array.from({ length: count }, (_, i) => `${String(i + 1).padStart(2, "0")}.svg`) });
  }
  return plan;
}

export function galleryUrl(year, file) {
  return `${GALLERY_BASE}/${year}/${file}`;
}
