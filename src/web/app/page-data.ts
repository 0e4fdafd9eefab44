/**
 * A data page's first HTML holds its queries (src/shared/page-render.ts): read before the browser hydrates, so the
 * first render has the data the HTML was made from and matches it (no layout shift, no second request).
 */
import type { QueryClient } from "@tanstack/react-query";
import { PAGE_DATA_ID, type PageData } from "../../shared/page-render";

/**
 * Puts every query of the page's data into the cache: as fetched now, or (`refresh`) as already old, so the page
 * asks for it again as soon as it has rendered.
 */
export function seedPageData(queryClient: QueryClient, data: PageData, now = Date.now()): void {
  for (const { key, data: value, refresh } of data.queries) {
    queryClient.setQueryData(key, value, { updatedAt: refresh ? 0 : now });
  }
}

/** The page's data from its `<script type="application/json">`, or null when it has none (or it is unreadable). */
export function readPageData(doc: Document): PageData | null {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as PageData;
    return Array.isArray(data.queries) ? data : null;
  } catch {
    return null;
  }
}
