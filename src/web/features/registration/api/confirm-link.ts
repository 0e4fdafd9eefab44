/**
 * POST /login-link: trades the token of the login mail's sign-in link for a session (ours, issue 43). Answers as
 * /code does: 200 with the registration, 204 without (then /get is asked), 403 when registration is closed and the
 * family has none; any other status has a Swedish `{error}` (used, expired or garbled link).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { configQueryOptions } from "../../../lib/config/get-config";
import { registrationQueryOptions } from "./get-registration";
import type { Registration } from "./types";

export function confirmLink(token: string): Promise<Registration | undefined> {
  return api<Registration | undefined>("/login-link", { method: "POST", json: { token } });
}

export function useConfirmLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmLink,
    onSuccess: async (registration) => {
      const { queryKey } = registrationQueryOptions();
      if (registration && typeof registration === "object") queryClient.setQueryData(queryKey, registration);
      else await queryClient.invalidateQueries({ queryKey });
      // As after a code: the top bar now offers 'Logga ut'.
      await queryClient.invalidateQueries({ queryKey: configQueryOptions().queryKey });
    },
  });
}
