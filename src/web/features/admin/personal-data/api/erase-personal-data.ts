/** POST /admin/api/personal-data/erase {email, confirm}: erases the address (confirm: the address typed again). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ErasedCounts } from "../../../../../shared/personal-data";
import { api } from "../../../../lib/api";
import { personalDataQueryOptions } from "./get-personal-data";

export function erasePersonalData(body: { email: string; confirm: string }): Promise<{ erased: ErasedCounts }> {
  return api<{ erased: ErasedCounts }>("/admin/api/personal-data/erase", { method: "POST", json: body });
}

export function useErasePersonalData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: erasePersonalData,
    onSuccess: (_, { email }) => queryClient.removeQueries({ queryKey: personalDataQueryOptions(email).queryKey }),
  });
}
