/** Gallery photo lists per year (served as /img_{year}.txt; DESIGN.md §10: data, not code). */
import { asc, desc, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";
import { galleryImages } from "./schema";

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

/** Replaces a year's list in one batch (all or nothing), chunked under D1's parameter limit. */
export async function replaceGallery(db: Db, year: number, urls: readonly string[]): Promise<void> {
  const statements: BatchItem<"sqlite">[] = [db.delete(galleryImages).where(eq(galleryImages.year, year))];
  for (let i = 0; i < urls.length; i += IMAGES_PER_INSERT) {
    const chunk = urls.slice(i, i + IMAGES_PER_INSERT);
    statements.push(db.insert(galleryImages).values(chunk.map((url, j) => ({ year, position: i + j + 1, url }))));
  }
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}
