/**
 * The build-time render of the public static pages (scripts/prerender.mjs). It renders the same <App> as the
 * browser, inside a StaticRouter, with an empty query cache: exactly what the browser's first render produces
 * before any data arrives, so hydration matches. Time-dependent parts are not decided here (see season-flags).
 * The data pages (/startlistor, /resultat) are rendered again on the Worker with their data (entry-server.tsx);
 * this render is their shell, and what is served when that fails.
 */
import { galleryIndexDescription, galleryYearDescription, galleryYears } from "../shared/gallery";
import { SEASON } from "../shared/season";
import { createQueryClient } from "./app/query-client";
import { renderRoot } from "./app/render-root";
import { COURSES_DESCRIPTION } from "./features/courses/courses-text";
import { RESULTS_DESCRIPTION } from "./features/results/results-text";
import { START_LISTS_DESCRIPTION } from "./features/start-lists/start-lists-text";
import { TERMS_DESCRIPTION } from "./features/terms/terms-text";
import { TIMING_DESCRIPTION } from "./features/timing/timing-text";
import { SITE_NAME } from "./lib/site";
import { documentTitle } from "./lib/use-document-title";

export { socialMetaTags } from "../shared/page-meta";
export { PAGE_LOADER_SCRIPT } from "../shared/security-headers";
export { SITE_NAME };

export interface PrerenderPage {
  path: string;
  /** File under dist/client. '/' is '_landing.html': index.html must stay the empty SPA fallback shell. */
  file: string;
  title: string;
  /** The meta description and og:description; without one the shell's site description stays. */
  description?: string;
}

export const PRERENDER_PAGES: readonly PrerenderPage[] = [
  { path: "/", file: "_landing.html", title: documentTitle() },
  {
    path: "/allmanna-villkor",
    file: "allmanna-villkor.html",
    title: documentTitle("Allmänna villkor"),
    description: TERMS_DESCRIPTION,
  },
  { path: "/banor", file: "banor.html", title: documentTitle("Banor"), description: COURSES_DESCRIPTION },
  {
    path: "/resultat",
    file: "resultat.html",
    title: documentTitle("Resultat"),
    description: RESULTS_DESCRIPTION,
  },
  {
    path: "/startlistor",
    file: "startlistor.html",
    title: documentTitle("Startlistor"),
    description: START_LISTS_DESCRIPTION,
  },
  {
    path: "/galleri",
    file: "galleri.html",
    title: documentTitle("Galleri"),
    description: galleryIndexDescription(SITE_NAME, SEASON.year),
  },
  // One page per year the index lists; the Worker serves it for a year with photos (src/worker/site/pages-routes.ts).
  ...galleryYears(SEASON.year).map((year) => ({
    path: `/galleri/${year}`,
    file: `galleri/${year}.html`,
    title: documentTitle(`Galleri ${year}`),
    description: galleryYearDescription(SITE_NAME, year),
  })),
  {
    path: "/tidtagning",
    file: "tidtagning.html",
    title: documentTitle("Tidtagning"),
    description: TIMING_DESCRIPTION,
  },
];

/** The HTML of #root for `path`, with every lazy chunk and Suspense boundary resolved. */
export function render(path: string): Promise<string> {
  return renderRoot(path, createQueryClient());
}
