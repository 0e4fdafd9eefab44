/**
 * The two admin roles (issue 43): a volunteer ('Funktionär') runs race day (the race screen and rapid timing, the
 * bib desk, the box office, the start lists and the race list); an organiser ('Arrangör') does all of that and the
 * rest of the back office (registrations and refunds, exports, personal data, mass e-mail, campaign codes, Epassi,
 * results import, analytics, resetting a race, 'Officiella', and who is admin). The Worker's table of which route
 * needs which role is src/worker/admin-roles.ts; the SPA's screens say theirs in admin-screens.ts. The wire shapes of
 * the admins screen (/admin/behorigheter, `/admin/api/admins`) are here too.
 */

export const ADMIN_ROLES = ["volunteer", "organiser"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const ROLE_LABEL: Record<AdminRole, string> = { volunteer: "Funktionär", organiser: "Arrangör" };

export function isAdminRole(value: unknown): value is AdminRole {
  return typeof value === "string" && (ADMIN_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `needed` is required for: an organiser may do everything a volunteer may. */
export function mayAct(role: AdminRole | null | undefined, needed: AdminRole): boolean {
  if (!role) return false;
  return needed === "volunteer" || role === "organiser";
}

/** The refusal a volunteer gets from an organiser's call (403) and sees on an organiser's page. */
export const ORGANISERS_ONLY = "Det här får bara arrangörer göra.";

/** One admin as the admins screen lists it (GET /admin/api/admins). */
export interface AdminEntry {
  email: string;
  role: AdminRole;
  /** In ADMIN_EMAILS: always an organiser, never changed or removed on the screen. */
  fixed: boolean;
  /** When it was added on the screen (epoch ms); null for an address only in ADMIN_EMAILS. */
  addedAt: number | null;
}

export interface AdminList {
  admins: AdminEntry[];
}

/**
 * A change on the admins screen. The path names the type, the rest is the body: POST /admin/api/admins
 * {email, role} (add), POST /admin/api/admins/change-role {email, role}, POST /admin/api/admins/remove {email}.
 */
export type AdminChange =
  | { type: "add"; email: string; role: AdminRole }
  | { type: "change-role"; email: string; role: AdminRole }
  | { type: "remove"; email: string };

/** The body of one change: the change without its type. */
export type AdminChangeBody<T extends AdminChange["type"]> = Omit<Extract<AdminChange, { type: T }>, "type">;
