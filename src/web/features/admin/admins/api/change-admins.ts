/**
 * The admins screen's three changes, each answering the whole list as it is after it (written into the list's
 * query): POST /admin/api/admins {email, role} (add), POST /admin/api/admins/change-role {email, role} and
 * POST /admin/api/admins/remove {email}.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminChange, AdminList } from "../../../../../shared/admin-roles";
import { api } from "../../../../lib/api";
import { adminsQueryOptions } from "./get-admins";

const PATH: Record<AdminChange["type"], string> = {
  add: "/admin/api/admins",
  "change-role": "/admin/api/admins/change-role",
  remove: "/admin/api/admins/remove",
};

export function changeAdmins({ type, ...body }: AdminChange): Promise<AdminList> {
  return api<AdminList>(PATH[type], { method: "POST", json: body });
}

export function useChangeAdmins() {
  const queryClient = useQueryClient();
  const { queryKey } = adminsQueryOptions();
  return useMutation({
    mutationFn: changeAdmins,
    onSuccess: (list) => queryClient.setQueryData(queryKey, { admins: list.admins }),
    // A refusal may mean the list moved on (another organiser): read it again.
    onError: () => queryClient.invalidateQueries({ queryKey }),
  });
}
