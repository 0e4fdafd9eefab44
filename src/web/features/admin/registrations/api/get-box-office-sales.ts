/** GET /admin/api/box-office-sales?season=YYYY: the season's box-office sales, each with its runner and refunds. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BoxOfficeSale } from "../../../../../shared/registrations-overview";
import { api } from "../../../../lib/api";

export function getBoxOfficeSales(season: number): Promise<BoxOfficeSale[]> {
  return api<BoxOfficeSale[]>(`/admin/api/box-office-sales?season=${season}`);
}

export const boxOfficeSalesQueryOptions = (season: number) =>
  queryOptions({ queryKey: ["admin", "box-office-sales", season], queryFn: () => getBoxOfficeSales(season) });

export function useBoxOfficeSales(season: number, enabled: boolean) {
  return useQuery({ ...boxOfficeSalesQueryOptions(season), enabled });
}
