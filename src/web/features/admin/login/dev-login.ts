/** POST /admin/api/dev-login {email}: development mode only (DESIGN.md); 401 when the address is no admin. */
import { api } from "../../../lib/api";

export function devLogin(email: string): Promise<unknown> {
  return api("/admin/api/dev-login", { method: "POST", json: { email } });
}
