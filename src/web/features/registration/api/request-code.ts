/** POST /email: sends a login code to the address. In development the answer carries the code itself. */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export interface CodeRequest {
  /** Becomes codeId in POST /code. */
  id: string;
  /** Pre-fills the code input; "" in production, where the code travels by e-mail only. */
  code: string;
}

export function requestCode(email: string): Promise<CodeRequest> {
  return api<CodeRequest>("/email", { method: "POST", json: { email } });
}

export function useRequestCode() {
  return useMutation({ mutationFn: requestCode });
}
