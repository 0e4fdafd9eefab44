/**
 * GET /api/races/companions/{part}: the adults who run with a child on this race without competing
 * (shared/companion.ts), for the start list's 'Med barn' rows. They are no runners of the race (no bib, no time), so
 * they never come through the race's view or its socket; the list asks for them when it opens, again when the tab
 * comes back into view, and every minute while it stays open.
 */
import { useQuery } from "@tanstack/react-query";
import type { PublicCompanionList } from "../../../../shared/public-view";
import { api } from "../../../lib/api";

export function getPublicCompanions(part: string): Promise<PublicCompanionList> {
  return api<PublicCompanionList>(`/api/races/companions/${encodeURIComponent(part)}`);
}

export function usePublicCompanions(part: string) {
  return useQuery({
    queryKey: ["public", "companions", part],
    queryFn: () => getPublicCompanions(part),
    staleTime: 30_000,
    refetchInterval: 60_000,
    refetchIntervalInBackground: false,
  });
}
