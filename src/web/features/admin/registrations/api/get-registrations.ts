/** GET /admin/registrations?season=YYYY: every registration of a season with its runners, payments and refunds. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { OverviewRegistration } from "../../../../../shared/registrations-overview";
import { api } from "../../../../lib/api";

export function getRegistrations(season: number): Promise<OverviewRegistration[]> {
  return api<OverviewRegistration[]>(`/admin/registrations?season=${season}`);
}

export const registrationsQueryOptions = (season: number) =>
  queryOptions({ queryKey: ["admin", "registrations", season], queryFn: () => getRegistrations(season) });

export function useRegistrations(season: number) {
  return useQuery(registrationsQueryOptions(season));
}
