import { SEASON } from "../../shared/season";

/**
 * The public address used in share links: the built environment's PUBLIC_ORIGIN (wrangler.toml; vite.config.ts
 * puts it here as VITE_PUBLIC_ORIGIN), a build-time constant rather than `location.origin`, so the pre-rendered
 * HTML and the first client render are identical.
 */
export const SITE_URL: string = import.meta.env.VITE_PUBLIC_ORIGIN || "https://lopp.example.se";

export const SITE_NAME = SEASON.siteName;

export interface NavItem {
  to: string;
  label: string;
}

/** The top bar's links and the small-screen drawer's (the registration link is the separate button). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: "/", label: "Start" },
  { to: "/startlistor", label: "Startlistor" },
  { to: "/resultat", label: "Resultat" },
  { to: "/banor", label: "Banor" },
  { to: "/galleri", label: "Galleri" },
  { to: "/tidtagning", label: "Tidtagning" },
];
