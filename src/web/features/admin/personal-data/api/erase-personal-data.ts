/**
 * POST /admin/api/personal-data/erase {email | phone | runner, confirm}: erases the person (confirm: the same typed
 * again).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ErasedAnswer, PersonalDataKey } from "../../../../../shared/personal-data";
import { api } from "../../../../lib/api";

export function erasePersonalData(body: PersonalDataKey & { confirm: string }): Promise<ErasedAnswer> {
  return api<ErasedAnswer>("/admin/api/personal-data/erase", { method: "POST", json: body });
}

export function useErasePersonalData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: erasePersonalData,
    onSuccess: () => queryClient.removeQueries({ queryKey: ["admin", "personal-data"] }),
  });
}
