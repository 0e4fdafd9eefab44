/**
 * POST /update: saves the whole runner map, based on the version the page last saw. A 409 with a registration
 * means another tab saved first: the page shows the server's list instead of overwriting it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ApiError } from "../../../lib/api";
import { registrationQueryOptions } from "./get-registration";
import { registrationOf } from "../../../../shared/api-answers";
import type { RunnerUpdate } from "../../../../shared/registration-schema";
import type { Registration } from "./types";
import { campaignQueryKeyRoot } from "./validate-kampanj";

export function updateRunners(body: RunnerUpdate): Promise<Registration> {
  return api<Registration>("/update", { method: "POST", json: body });
}

/** The registration a 409 answer carries (RegistrationConflict), if any. */
function registrationInError(err: unknown): Registration | null {
  return err instanceof ApiError ? registrationOf(err.body) : null;
}

export function useUpdateRunners() {
  const queryClient = useQueryClient();
  const { queryKey } = registrationQueryOptions();
  return useMutation({
    mutationFn: updateRunners,
    onSuccess: (registration) => queryClient.setQueryData(queryKey, registration),
    onError: async (err) => {
      const fresh = registrationInError(err);
      if (fresh) queryClient.setQueryData(queryKey, fresh);
      else if (err instanceof ApiError && (err.status === 409 || err.status === 403)) {
        await queryClient.invalidateQueries({ queryKey });
      }
    },
    // Spec: every runner change recomputes the campaign evaluation.
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignQueryKeyRoot }),
  });
}
