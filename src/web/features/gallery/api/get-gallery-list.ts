/**
 * GET /img_{year}.txt (spec: "Newline-separated list of image URLs"): one year's photos in order, read with the
 * shared gallery rules (each line of ours becomes its sizes). 404 (no gallery, or an empty list) is an ApiError
 * with status 404, which the page shows as "no such gallery".
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { parseGalleryList, type GalleryPhoto } from "../../../../shared/gallery";
import { api, ApiError } from "../../../lib/api";
import { GALLERY_STALE_MS } from "./get-gallery-index";

export async function getGalleryList(year: number): Promise<GalleryPhoto[]> {
  const text = await api<unknown>(`/img_${year}.txt`, { headers: { accept: "text/plain" } });
  const photos = typeof text === "string" ? parseGalleryList(text) : [];
  if (photos.length === 0) throw new ApiError(404, { error: "Det finns inget galleri för det året" });
  return photos;
}

export const galleryListQueryOptions = (year: number) =>
  queryOptions({
    queryKey: ["public", "gallery", year],
    queryFn: () => getGalleryList(year),
    staleTime: GALLERY_STALE_MS,
    // A missing gallery stays missing: no retries for a 404.
    retry: (count, err) => !(err instanceof ApiError && err.status === 404) && count < 2,
  });

export function useGalleryList(year: number | null) {
  return useQuery({ ...galleryListQueryOptions(year ?? 0), enabled: year !== null });
}
