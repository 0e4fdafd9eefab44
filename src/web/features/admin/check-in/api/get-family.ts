/**
 * GET /admin/api/checkin/family/{kind}/{id}: one family as its races have it now, and
 * GET /admin/api/checkin/code/{code}: the family a check-in code (the QR, or typed) names.
 */
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import type { DeskFamily, FamilyKey } from "../../../../../shared/checkin";
import { api } from "../../../../lib/api";

export const familyQueryOptions = ({ kind, id }: FamilyKey) =>
  queryOptions({
    queryKey: ["admin", "checkin", "family", kind, id],
    queryFn: () => api<DeskFamily>(`/admin/api/checkin/family/${kind}/${encodeURIComponent(id)}`),
  });

export function useFamily(key: FamilyKey | null) {
  return useQuery({ ...familyQueryOptions(key ?? { kind: "anmalan", id: "" }), enabled: key !== null });
}

/** Looks a code up and keeps the family it names in the cache under its own key. */
export async function familyByCode(queryClient: QueryClient, code: string): Promise<DeskFamily> {
  const family = await api<DeskFamily>(`/admin/api/checkin/code/${encodeURIComponent(code)}`);
  queryClient.setQueryData(familyQueryOptions(family).queryKey, family);
  return family;
}
