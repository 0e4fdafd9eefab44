/** POST /email: sends a login code to the address. In development the answer carries the code itself. */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { CodeRequest } from "../../../../shared/api-answers";
export type { CodeRequest };

export function requestCode(email: string): Promise<CodeRequest> {
  return api<CodeRequest>("/email", { method: "POST", json: { email } });
}

export function useRequestCode() {
  return useMutation({ mutationFn: requestCode });
}
