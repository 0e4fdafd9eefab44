/**
 * The photo galleries' rules, shared by the Worker (which serves the photos), the pages (which build `srcset`
 * from a list line) and the organiser's command (scripts/gallery-add.mjs, which makes the sizes).
 *
 * Where photos live: the R2 bucket bound as `GALLERY`, one object per photo and width, under the key
 * `{year}/{name}-{width}.jpg`, served by the Worker at `/galleri-bilder/{year}/{name}-{width}.jpg`. `name` is
 * the first 12 hex digits of the SHA-256 of the original file (the demo's are `01`, `02` …), so an address always
 * holds the same picture and may be cached for a year.
 *
 * Sizes (spec: thumbnails 150–640 px, carousel 300–2560 px): every photo is written in each width of
 * IMAGE_WIDTHS that is not wider than the original (never upscaled). The year's list (`/img_{year}.txt`, one URL
 * a line) holds each photo's largest size, an address a browser can open; the pages derive the smaller ones from
 * it (`parseGalleryUrl`). A line that is not such an address (a photo hosted elsewhere) is shown as it is.
 */

/** The first year with a gallery. */
export const GALLERY_FIRST_YEAR = 2014;

/** Thumbnail widths in the grid (spec: 150–640 px). */
export const THUMBNAIL_WIDTHS = [160, 320, 640] as const;
/** Widths for the fullscreen carousel (spec: 300–2560 px). */
export const CAROUSEL_WIDTHS = [640, 1280, 1920, 2560] as const;
/** Every width a photo is stored in, ascending. */
export const IMAGE_WIDTHS: readonly number[] = [...new Set([...THUMBNAIL_WIDTHS, ...CAROUSEL_WIDTHS])].sort(
  (a, b) => a - b,
);
/** The smallest original that can be added: the carousel needs at least 300 px, and 320 is the nearest size. */
export const MIN_ORIGINAL_WIDTH = 320;

/** Where the Worker serves the photos. */
export const GALLERY_IMAGE_PREFIX = "/galleri-bilder";

const NAME = /^[a-z0-9]{1,40}$/;
const URL_PATTERN = /^\/galleri-bilder\/(\d{4})\/([a-z0-9]{1,40})-(\d{2,4})\.jpg$/;

export interface GalleryPhoto {
  /** The address as listed (the largest size for one of ours). */
  url: string;
  /** Widths available (ascending) when it is one of ours; empty for a photo hosted elsewhere. */
  widths: number[];
  /** `/galleri-bilder/{year}/{name}` when it is one of ours: add `-{width}.jpg`. */
  base: string | null;
}

/** The years the gallery index shows, newest first: from the year before the season down to 2014. */
export function galleryYears(seasonYear: number): number[] {
  const years: number[] = [];
  for (let year = seasonYear - 1; year >= GALLERY_FIRST_YEAR; year--) years.push(year);
  return years;
}

/** The widths a photo `originalWidth` px wide is stored in (none wider than the original). */
export function widthsFor(originalWidth: number): number[] {
  return IMAGE_WIDTHS.filter((w) => w <= originalWidth);
}

/** The bucket key of one size. */
export function galleryKey(year: number, name: string, width: number): string {
  if (!NAME.test(name)) throw new Error(`Ogiltigt bildnamn: ${name}`);
  return `${year}/${name}-${width}.jpg`;
}

export function galleryUrl(year: number, name: string, width: number): string {
  return `${GALLERY_IMAGE_PREFIX}/${galleryKey(year, name, width)}`;
}

/**
 * The bucket key for a request path below GALLERY_IMAGE_PREFIX (`{year}/{file}`), or null when it is not one
 * of the sizes a photo can have (a width outside IMAGE_WIDTHS, another extension, a path trick).
 */
export function keyForRequest(year: string, file: string): string | null {
  if (!/^\d{4}$/.test(year)) return null;
  const match = /^([a-z0-9]{1,40})-(\d{2,4})\.jpg$/.exec(file);
  if (!match || !IMAGE_WIDTHS.includes(Number(match[2]))) return null;
  return `${year}/${file}`;
}

/** One list line as a photo: ours get every stored width up to the listed one, others stay as they are. */
export function parseGalleryUrl(line: string): GalleryPhoto {
  const url = line.trim();
  const match = URL_PATTERN.exec(url);
  const largest = match ? Number(match[3]) : NaN;
  if (!match || !IMAGE_WIDTHS.includes(largest)) return { url, widths: [], base: null };
  return {
    url,
    widths: IMAGE_WIDTHS.filter((w) => w <= largest),
    base: `${GALLERY_IMAGE_PREFIX}/${match[1]}/${match[2]}`,
  };
}

/** `/img_{year}.txt`'s text as photos, in order; blank lines are skipped. */
export function parseGalleryList(text: string): GalleryPhoto[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map(parseGalleryUrl);
}

function srcset(photo: GalleryPhoto, widths: readonly number[]): string | undefined {
  const base = photo.base;
  if (!base) return undefined;
  const chosen = photo.widths.filter((w) => widths.includes(w));
  // A small original has only the smallest sizes: use what there is.
  const list = chosen.length > 0 ? chosen : photo.widths;
  return list.map((w) => `${base}-${w}.jpg ${w}w`).join(", ");
}

/** The grid's thumbnail: `src` (the smallest thumbnail) and `srcSet` over THUMBNAIL_WIDTHS. */
export function thumbnailSource(photo: GalleryPhoto): { src: string; srcSet?: string } {
  if (!photo.base) return { src: photo.url };
  const smallest = photo.widths[0]!;
  return { src: `${photo.base}-${smallest}.jpg`, srcSet: srcset(photo, THUMBNAIL_WIDTHS) };
}

/** The carousel's picture: `src` (the listed, largest size) and `srcSet` over the carousel widths it has. */
export function carouselSource(photo: GalleryPhoto): { src: string; srcSet?: string } {
  if (!photo.base) return { src: photo.url };
  const widths = photo.widths.filter((w) => w >= 300);
  return {
    src: photo.url,
    srcSet: srcset({ ...photo, widths: widths.length > 0 ? widths : photo.widths }, CAROUSEL_WIDTHS),
  };
}

/** A file name for the download button: `byloppet-2019-07.jpg`. */
export function downloadName(siteName: string, year: number, index: number, url: string): string {
  const ext = /\.(jpe?g|png|webp|gif|avif|svg)$/i.exec(url)?.[1]?.toLowerCase() ?? "jpg";
  return `${siteName.toLowerCase()}-${year}-${String(index + 1).padStart(2, "0")}.${ext}`;
}

/** The index page's description (meta and Open Graph). */
export function galleryIndexDescription(siteName: string, seasonYear: number): string {
  return `Bilder från ${siteName} år för år, från ${seasonYear - 1} tillbaka till ${GALLERY_FIRST_YEAR}: löpare, start och mål. Öppna ett år och bläddra i helskärm eller ladda ner bilderna.`;
}

/** A year page's description (meta and Open Graph), written at build for the pre-rendered years. */
export function galleryYearDescription(siteName: string, year: number): string {
  return `Bilder från ${siteName} ${year}: bläddra bland årets bilder i helskärm och ladda ner dem i full storlek.`;
}
