/** GET /api/gallery: the years that have photos, newest first, each with its photo count and first photo. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { GallerySummary, GalleryIndex } from "../../../../shared/api-answers";
export type { GallerySummary, GalleryIndex };

/** A new year's photos are added once a year; the Worker lets browsers keep the answer 5 minutes too. */
export const GALLERY_STALE_MS = 5 * 60_000;

export function getGalleryIndex(): Promise<GalleryIndex> {
  return api<GalleryIndex>("/api/gallery");
}

export const galleryIndexQueryOptions = () =>
  queryOptions({ queryKey: ["public", "gallery"], queryFn: getGalleryIndex, staleTime: GALLERY_STALE_MS });

export function useGalleryIndex() {
  return useQuery(galleryIndexQueryOptions());
}
