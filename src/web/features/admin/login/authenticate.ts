/** POST /admin/api/authenticate {credential}: a Google ID token; 401 means the account is not an admin. */
import { api } from "../../../lib/api";

export function authenticate(credential: string): Promise<unknown> {
  return api("/admin/api/authenticate", { method: "POST", json: { credential } });
}
