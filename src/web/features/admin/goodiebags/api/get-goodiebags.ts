/** GET /admin/api/goodiebags: the current season's paid runners per distance, children and adults apart. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { BagCount, GoodieBags } from "../../../../../shared/api-answers";
export type { BagCount, GoodieBags };

export const goodieBagsQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "goodiebags"], queryFn: () => api<GoodieBags>("/admin/api/goodiebags") });

export function useGoodieBags() {
  return useQuery(goodieBagsQueryOptions());
}
