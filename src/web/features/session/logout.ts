/** GET /api/logout: ends the visitor and admin sessions on the server (DESIGN.md §3: revocable sessions). */
import { api } from "../../lib/api";

export function logout(): Promise<unknown> {
  return api("/api/logout");
}
