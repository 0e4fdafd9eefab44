/** The admin screens (spec, admin area §2): the tabs in their order, and everything the side drawer lists. */
export interface AdminScreen {
  path: string;
  label: string;
  /** Shown as a tab; the others are reached from the drawer. */
  tab: boolean;
}

export const ADMIN_SCREENS: readonly AdminScreen[] = [
  { path: "/admin/list-by-race", label: "Anmälningar", tab: true },
  { path: "/admin/race", label: "Lopp", tab: true },
  { path: "/admin/edit-races", label: "Hantera tävlingar", tab: true },
  { path: "/admin/epassi", label: "Epassi", tab: true },
  { path: "/admin/analytics", label: "Analytics", tab: true },
  { path: "/admin/email-previous-runners", label: "Maila tidigare löpare", tab: true },
  { path: "/admin/email-runners", label: "Maila registrerade löpare", tab: true },
  { path: "/admin/kampanjkoder", label: "Kampanjkoder", tab: true },
  { path: "/admin/goodiebags", label: "Goodiebags", tab: false },
  { path: "/admin/personuppgifter", label: "Personuppgifter", tab: false },
  { path: "/admin/kassa", label: "Biljettkassan", tab: false },
  { path: "/admin/incheckning", label: "Nummerlappar", tab: false },
  { path: "/admin/resultat", label: "Importera resultat", tab: false },
  { path: "/admin-old", label: "Äldre admin", tab: false },
  // The volunteers' guide for the bib desk and the finish line (help/volunteer-guide.ts).
  { path: "/admin/hjalp", label: "Hjälp", tab: false },
];

/** The screen a path belongs to: '/admin/race/race-250913-56' → 'Lopp'. */
export function screenForPath(pathname: string): AdminScreen | undefined {
  return ADMIN_SCREENS.find((s) => pathname === s.path || pathname.startsWith(`${s.path}/`));
}
