/** GET /admin/api/previous-runners-count and /admin/api/get_current_runners_count_handler: {count}. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { AUDIENCES, type Audience } from "../audiences";
import type { RecipientCount } from "../../../../../shared/mailings";

export async function getRecipientCount(audience: Audience): Promise<number> {
  // Checked before it is used: an answer without a number is an error on the page, never a count of 0.
  const body = await api<Partial<Record<keyof RecipientCount, unknown>>>(AUDIENCES[audience].countPath);
  if (typeof body?.count !== "number") throw new Error("Ogiltigt svar från servern.");
  return body.count;
}

export const recipientCountQueryOptions = (audience: Audience) =>
  queryOptions({ queryKey: ["admin", "mass-email", audience, "count"], queryFn: () => getRecipientCount(audience) });

export function useRecipientCount(audience: Audience) {
  return useQuery(recipientCountQueryOptions(audience));
}
