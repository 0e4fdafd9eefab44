/** POST /admin/api/dev-login {email}: development mode only (DESIGN.md); 401 when the address is no admin. */
import type { AdminSignedIn } from "../../../../shared/api-answers";
import { api } from "../../../lib/api";

export function devLogin(email: string): Promise<AdminSignedIn> {
  return api<AdminSignedIn>("/admin/api/dev-login", { method: "POST", json: { email } });
}
