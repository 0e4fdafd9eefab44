/** GET /get: the visitor's registration, or null when there is no session (the server answers 401). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, ApiError } from "../../../lib/api";
import type { Registration } from "./types";

export async function getRegistration(): Promise<Registration | null> {
  try {
    return await api<Registration>("/get");
  } catch (err) {
    // Spec: "Otherwise a not-ok status, which sends the user to step 1": 401/403 mean "not logged in".
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return null;
    throw err;
  }
}

export const registrationQueryOptions = () =>
  queryOptions({
    queryKey: ["registration"],
    queryFn: getRegistration,
    // Every visit asks the server afresh (spec: "On entering, the product asks the server whether a session exists").
    staleTime: 0,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500 && err.status > 0) && count < 2,
  });

export function useRegistration() {
  return useQuery(registrationQueryOptions());
}
