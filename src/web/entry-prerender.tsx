/**
 * The build-time render of the public static pages (scripts/prerender.mjs). It renders the same <App> as the
 * browser, inside a StaticRouter, with an empty query cache: exactly what the browser's first render produces
 * before any data arrives, so hydration matches. Time-dependent parts are not decided here (see season-flags).
 */
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router";
import { App } from "./app/app";
import { createQueryClient } from "./app/query-client";
import { documentTitle } from "./lib/use-document-title";

export interface PrerenderPage {
  path: string;
  /** File under dist/client. '/' is '_landing.html': index.html must stay the empty SPA fallback shell. */
  file: string;
  title: string;
}

export const PRERENDER_PAGES: readonly PrerenderPage[] = [
  { path: "/", file: "_landing.html", title: documentTitle() },
  { path: "/allmanna-villkor", file: "allmanna-villkor.html", title: documentTitle("Allmänna villkor") },
  { path: "/banor", file: "banor.html", title: documentTitle("Banor") },
  { path: "/resultat", file: "resultat.html", title: documentTitle("Resultat") },
  { path: "/startlistor", file: "startlistor.html", title: documentTitle("Startlistor") },
  { path: "/galleri", file: "galleri.html", title: documentTitle("Galleri") },
];

/** The HTML of #root for `path`, with every lazy chunk and Suspense boundary resolved. */
export async function render(path: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <App queryClient={createQueryClient()} />
      </StaticRouter>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
