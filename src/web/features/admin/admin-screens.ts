/**
 * The admin screens (spec, admin area §2): the tabs in their order, and everything the side drawer lists, each with
 * the role it needs (issue 43; src/shared/admin-roles.ts). The menu shows a volunteer only theirs, and the shell shows
 * 'Det här får bara arrangörer göra.' instead of an organiser's screen opened by its address. The Worker refuses
 * the calls behind them all the same (src/worker/middleware/route-roles.ts).
 */
import { mayAct, type AdminRole } from "../../../shared/admin-roles";

export interface AdminScreen {
  path: string;
  label: string;
  /** Shown as a tab; the others are reached from the drawer. */
  tab: boolean;
  role: AdminRole;
}

export const ADMIN_SCREENS: readonly AdminScreen[] = [
  { path: "/admin/list-by-race", label: "Anmälningar", tab: true, role: "organiser" },
  { path: "/admin/race", label: "Lopp", tab: true, role: "volunteer" },
  { path: "/admin/edit-races", label: "Hantera tävlingar", tab: true, role: "volunteer" },
  { path: "/admin/epassi", label: "Epassi", tab: true, role: "organiser" },
  { path: "/admin/analytics", label: "Analytics", tab: true, role: "organiser" },
  { path: "/admin/email-previous-runners", label: "Maila tidigare löpare", tab: true, role: "organiser" },
  { path: "/admin/email-runners", label: "Maila registrerade löpare", tab: true, role: "organiser" },
  { path: "/admin/kampanjkoder", label: "Kampanjkoder", tab: true, role: "organiser" },
  { path: "/admin/goodiebags", label: "Goodiebags", tab: false, role: "organiser" },
  { path: "/admin/personuppgifter", label: "Personuppgifter", tab: false, role: "organiser" },
  { path: "/admin/kassa", label: "Biljettkassan", tab: false, role: "volunteer" },
  { path: "/admin/incheckning", label: "Nummerlappar", tab: false, role: "volunteer" },
  { path: "/admin/resultat", label: "Importera resultat", tab: false, role: "organiser" },
  // Who is admin, and in which role (admins/admins-page.tsx).
  { path: "/admin/behorigheter", label: "Behörigheter", tab: false, role: "organiser" },
  { path: "/admin-old", label: "Äldre admin", tab: false, role: "organiser" },
  // The volunteers' guide for the bib desk and the finish line (help/volunteer-guide.ts).
  { path: "/admin/hjalp", label: "Hjälp", tab: false, role: "volunteer" },
];

/** Where `/admin` (and a successful sign-in) leads: the registrations list for an organiser, the race list else. */
export function adminStartPath(role: AdminRole): string {
  return role === "organiser" ? "/admin/list-by-race" : "/admin/edit-races";
}

/** The screens `role` may use, in menu order. */
export function screensFor(role: AdminRole): AdminScreen[] {
  return ADMIN_SCREENS.filter((s) => mayAct(role, s.role));
}

/** The screen a path belongs to: '/admin/race/race-250913-56' → 'Lopp'. */
export function screenForPath(pathname: string): AdminScreen | undefined {
  return ADMIN_SCREENS.find((s) => pathname === s.path || pathname.startsWith(`${s.path}/`));
}
