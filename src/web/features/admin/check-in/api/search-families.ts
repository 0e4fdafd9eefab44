/** GET /admin/api/checkin/search?q=: this season's families by a runner's name, the e-mail, or a bib. */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { DeskSearchHit } from "../../../../../shared/checkin";
import { api } from "../../../../lib/api";

export const searchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ["admin", "checkin", "search", q],
    queryFn: ({ signal }) => api<DeskSearchHit[]>(`/admin/api/checkin/search?q=${encodeURIComponent(q)}`, { signal }),
    staleTime: 5_000,
  });

/** Searches once the query is worth it: two characters, or a number (a bib). */
export function useSearchFamilies(q: string) {
  const query = q.trim();
  const enabled = query.length >= 2 || /^\d+$/.test(query);
  return useQuery({ ...searchQueryOptions(query), enabled, placeholderData: keepPreviousData });
}
