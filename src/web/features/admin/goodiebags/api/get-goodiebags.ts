/** GET /admin/api/goodiebags: the current season's paid runners per distance, children and adults apart. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DistanceKm } from "../../../../../shared/distances";
import { api } from "../../../../lib/api";

export interface BagCount {
  barn: number;
  vuxna: number;
  /** Adults running with a child without competing, counted apart (in the total). */
  medBarn: number;
  total: number;
  /** Of the total, handed out with the bib at the desk. */
  handedOut: number;
}

export interface GoodieBags {
  season: number;
  /** Runners this old or older are adults (the pricing's rule). */
  adultAge: number;
  /** 5.6, 2.8, 1.6, 0.8, every distance listed. */
  distances: (BagCount & { distance: DistanceKm; label: string })[];
  totals: BagCount;
  /** Of the totals, runners who paid at the box office. */
  boxOffice: BagCount;
  /** The server's moment of the count (epoch ms). */
  generatedAt: number;
}

export const goodieBagsQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "goodiebags"], queryFn: () => api<GoodieBags>("/admin/api/goodiebags") });

export function useGoodieBags() {
  return useQuery(goodieBagsQueryOptions());
}
