/**
 * The gallery's photo lists from D1 (`GET /api/gallery`, `GET /img_{year}.txt`, below) and its photos from the R2
 * bucket `GALLERY`: `GET /galleri-bilder/{year}/{name}-{width}.jpg`
 * (src/shared/gallery.ts has the key scheme and the widths; scripts/gallery-add.mjs writes them).
 *
 * - Only the stored widths (IMAGE_WIDTHS) are asked of the bucket; any other path is a 404 without a read.
 * - An address always holds the same picture (its name is its original's hash), so browsers and caches may keep
 *   it a year (`immutable`); the ETag is R2's, and a matching If-None-Match answers 304 without the body.
 * - A key the bucket does not hold answers 404 with the Swedish message; the page shows its own placeholder text
 *   in the picture's box.
 */
import { Hono } from "hono";
import { keyForRequest } from "../../shared/gallery";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { listGallerySummaries, listGalleryUrls } from "./gallery-db";
import type { GalleryIndex } from "../../shared/api-answers";

export const IMAGE_CACHE = "public, max-age=31536000, immutable";

/** R2 leaves the body out when a condition (If-None-Match) did not hold. */
const hasBody = (object: R2Object): object is R2ObjectBody => "body" in object;

export const galleryImageRoutes = new Hono<AppEnv>();
export const galleryRoutes = new Hono<AppEnv>();

galleryImageRoutes.get("/:year/:file", async (c) => {
  const key = keyForRequest(c.req.param("year"), c.req.param("file"));
  if (!key) throw notFound("Bilden finns inte");
  // R2 evaluates If-None-Match itself: a match returns the object's metadata without a body. HEAD reads only
  // the metadata (Hono answers HEAD with the GET route).
  const head = c.req.method === "HEAD";
  const object = head ? await c.env.GALLERY.head(key) : await c.env.GALLERY.get(key, { onlyIf: c.req.raw.headers });
  if (!object) throw notFound("Bilden finns inte");

  const headers = new Headers();
  object.writeHttpMetadata(headers);
  if (!headers.has("content-type")) headers.set("content-type", "image/jpeg");
  headers.set("cache-control", IMAGE_CACHE);
  headers.set("etag", object.httpEtag);
  headers.set("content-length", String(object.size));
  if (head) return new Response(null, { headers });
  if (!hasBody(object)) {
    headers.delete("content-length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(object.body, { headers });
});

// ---- The photo lists (D1) ------------------------------------------------------------------------------------

/** Photo lists change a few times a year; a short cache keeps a fresh import visible within minutes. */
const CACHE = "public, max-age=300";

export const galleryFileRoutes = new Hono<AppEnv>();

// Spec: "GET /img_{year}.txt — Newline-separated list of image URLs". The year sits inside the path segment.
galleryFileRoutes.get("/:file{img_[0-9]{4}\\.txt}", async (c) => {
  const year = Number(c.req.param("file").slice("img_".length, "img_".length + 4));
  const urls = await listGalleryUrls(database(c.env.DB), year);
  if (urls.length === 0) throw notFound("Det finns inget galleri för det året");
  return c.body(urls.join("\n"), 200, { "content-type": "text/plain; charset=utf-8", "cache-control": CACHE });
});

/** Years with a gallery, newest first, and per year its photo count and first photo (the index's cards). */
galleryRoutes.get("/", async (c) => {
  const galleries = await listGallerySummaries(database(c.env.DB));
  return c.json({ years: galleries.map((g) => g.year), galleries } satisfies GalleryIndex, 200, {
    "cache-control": CACHE,
  });
});
