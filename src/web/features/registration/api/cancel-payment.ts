/**
 * POST /cancel-payment: withdraws the family's payment still waiting in Swish ('Avbryt betalningen'), so runners can
 * be added again. Answers the registration, which replaces the page's copy.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { registrationQueryOptions } from "./get-registration";
import type { Registration } from "./types";

export function cancelPayment(): Promise<Registration> {
  return api<Registration>("/cancel-payment", { method: "POST", json: {} });
}

export function useCancelPayment() {
  const queryClient = useQueryClient();
  const { queryKey } = registrationQueryOptions();
  return useMutation({
    mutationFn: cancelPayment,
    onSuccess: (registration) => queryClient.setQueryData(queryKey, registration),
    onError: () => queryClient.invalidateQueries({ queryKey }),
  });
}
