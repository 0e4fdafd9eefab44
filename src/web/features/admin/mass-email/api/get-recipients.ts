/**
 * GET /admin/api/previous-runners (name, email) and /admin/api/get_current_runners_handler (name, email, race).
 * Anything but an array of such rows is `null` ("invalid response format" on the screen).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { AUDIENCES, type Audience } from "../audiences";
import { isRecipient, type Recipient } from "../../../../../shared/mailings";

export type { Recipient };

export async function getRecipients(audience: Audience): Promise<Recipient[] | null> {
  const body = await api<unknown>(AUDIENCES[audience].listPath);
  return Array.isArray(body) && body.every(isRecipient) ? body : null;
}

export const recipientsQueryOptions = (audience: Audience) =>
  queryOptions({ queryKey: ["admin", "mass-email", audience, "list"], queryFn: () => getRecipients(audience) });

export function useRecipients(audience: Audience) {
  return useQuery(recipientsQueryOptions(audience));
}
