/**
 * POST /code: trades the e-mailed code for a session. 200 carries the registration, 204 none (then /get is
 * asked); 403 means registration is closed; any other status has a Swedish `{error}`.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CodeConfirmation } from "../../../../shared/registration-schema";
import { api } from "../../../lib/api";
import { configQueryOptions } from "../../../lib/config/get-config";
import { registrationQueryOptions } from "./get-registration";
import type { Registration } from "./types";

export function confirmCode(body: CodeConfirmation): Promise<Registration | undefined> {
  return api<Registration | undefined>("/code", { method: "POST", json: body });
}

export function useConfirmCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmCode,
    onSuccess: async (registration) => {
      const { queryKey } = registrationQueryOptions();
      if (registration && typeof registration === "object") queryClient.setQueryData(queryKey, registration);
      else await queryClient.invalidateQueries({ queryKey });
      // Spec: the configuration is refreshed after code confirmation (the top bar now offers 'Logga ut').
      await queryClient.invalidateQueries({ queryKey: configQueryOptions().queryKey });
    },
  });
}
