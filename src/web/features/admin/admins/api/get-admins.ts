/** GET /admin/api/admins: every admin with its role, ADMIN_EMAILS first (an organiser's call). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminList } from "../../../../../shared/admin-roles";
import { api } from "../../../../lib/api";

export const adminsQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "admins"], queryFn: () => api<AdminList>("/admin/api/admins") });

export function useAdmins() {
  return useQuery(adminsQueryOptions());
}
