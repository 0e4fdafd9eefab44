/**
 * Gallery photo lists per year (served as /img_{year}.txt; DESIGN.md §10: data, not code). One row per photo:
 * its position in the year's gallery and its URL (for our own photos the largest size in the R2 bucket,
 * src/shared/gallery.ts). A year has a gallery exactly when it has rows; replacing a year's list is one batch,
 * so a visitor sees the old list or the new one, never a mix.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { galleryImages } from "../db/schema";

/** D1 binds at most 100 parameters per statement; a gallery row binds 3. */
const IMAGES_PER_INSERT = Math.floor(100 / 3);

/** The year's image URLs in gallery order; empty when the year has no gallery. */
export async function listGalleryUrls(db: Db, year: number): Promise<string[]> {
  const rows = await db
    .select({ url: galleryImages.url })
    .from(galleryImages)
    .where(eq(galleryImages.year, year))
    .orderBy(asc(galleryImages.position))
    .all();
  return rows.map((r) => r.url);
}

/** Years that have a gallery, newest first (the gallery index lists 2024 down to 2014). */
export async function listGalleryYears(db: Db): Promise<number[]> {
  const rows = await db
    .selectDistinct({ year: galleryImages.year })
    .from(galleryImages)
    .orderBy(desc(galleryImages.year))
    .all();
  return rows.map((r) => r.year);
}

export interface GallerySummary {
  year: number;
  /** How many photos the year has (at least 1). */
  count: number;
  /** The first photo's URL: the year's card on the index. */
  cover: string;
}

/** Every year with a gallery, newest first, with its photo count and cover: one statement on the primary key. */
export async function listGallerySummaries(db: Db): Promise<GallerySummary[]> {
  return db.all<GallerySummary>(sql`
    SELECT g.year AS year, count(*) AS count,
      (SELECT c.url FROM gallery_images c WHERE c.year = g.year ORDER BY c.position LIMIT 1) AS cover
    FROM gallery_images g GROUP BY g.year ORDER BY g.year DESC`);
}

/** The year's photo count and first photo, or null when the year has no gallery (the year page's 404). */
export async function gallerySummary(db: Db, year: number): Promise<GallerySummary | null> {
  const rows = await db.all<GallerySummary>(sql`
    SELECT ${year} AS year, count(*) AS count,
      (SELECT c.url FROM gallery_images c WHERE c.year = ${year} ORDER BY c.position LIMIT 1) AS cover
    FROM gallery_images g WHERE g.year = ${year}`);
  const row = rows[0];
  return row && row.count > 0 ? row : null;
}

/** Replaces a year's list in one batch (all or nothing), chunked under D1's parameter limit. */
export async function replaceGallery(db: Db, year: number, urls: readonly string[]): Promise<void> {
  const statements: BatchItem<"sqlite">[] = [db.delete(galleryImages).where(eq(galleryImages.year, year))];
  for (let i = 0; i < urls.length; i += IMAGES_PER_INSERT) {
    const chunk = urls.slice(i, i + IMAGES_PER_INSERT);
    statements.push(db.insert(galleryImages).values(chunk.map((url, j) => ({ year, position: i + j + 1, url }))));
  }
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}
