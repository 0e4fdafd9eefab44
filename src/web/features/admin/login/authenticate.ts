/** POST /admin/api/authenticate {credential}: a Google ID token; 401 means the account is not an admin. */
import type { AdminSignedIn } from "../../../../shared/api-answers";
import { api } from "../../../lib/api";

export function authenticate(credential: string): Promise<AdminSignedIn> {
  return api<AdminSignedIn>("/admin/api/authenticate", { method: "POST", json: { credential } });
}
