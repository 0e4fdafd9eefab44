/** GET /admin/api/previous-runners-count and /admin/api/get_current_runners_count_handler: {count}. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { AUDIENCES, type Audience } from "../audiences";

export async function getRecipientCount(audience: Audience): Promise<number> {
  const body = await api<{ count?: unknown }>(AUDIENCES[audience].countPath);
  if (typeof body?.count !== "number") throw new Error("Ogiltigt svar från servern.");
  return body.count;
}

export const recipientCountQueryOptions = (audience: Audience) =>
  queryOptions({ queryKey: ["admin", "mass-email", audience, "count"], queryFn: () => getRecipientCount(audience) });

export function useRecipientCount(audience: Audience) {
  return useQuery(recipientCountQueryOptions(audience));
}
