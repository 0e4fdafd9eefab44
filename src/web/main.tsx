/**
 * The browser entry. A page pre-rendered at build carries `data-prerendered="<its path>"` on #root: then React
 * hydrates the HTML that is already on screen (a data page's from the data its HTML holds). Any other path (the SPA
 * fallback for deep links such as /anmalan/2 or /admin/race gets the empty shell) is rendered from scratch.
 */
import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./app/app";
import { readPageData, seedPageData } from "./app/page-data";
import { preloadScreens } from "./app/routes";
import { createQueryClient } from "./app/query-client";
import { reloadOnStaleChunks } from "./lib/chunk-reload";
// Read at start-up, before any move between screens: the document's area is the address it was loaded with.
import "./lib/document-area";
import "./styles/theme.css";

// A deploy while the page is open: a lazy screen whose chunk is gone reloads the page once onto the new code.
reloadOnStaleChunks();

/** How long a deep link's first render waits for its screens' code (a slow connection renders "Laddar…" first). */
const FIRST_SCREEN_WAIT_MS = 3_000;

const root = document.getElementById("root");
if (!root) throw new Error("#root saknas i index.html");

const queryClient = createQueryClient();
const app = (
  <StrictMode>
    <BrowserRouter>
      <App queryClient={queryClient} />
    </BrowserRouter>
  </StrictMode>
);

const prerenderedFor = root.dataset.prerendered;
if (prerenderedFor !== undefined && prerenderedFor === location.pathname && root.firstChild) {
  // A data page's HTML was rendered from the data it holds: the first render reads the same.
  const pageData = readPageData(document);
  if (pageData) seedPageData(queryClient, pageData);
  // As a transition, hydration yields to the browser every few milliseconds instead of one long task: the page
  // is already visible, so nothing is lost, and a slow phone stays responsive (Total Blocking Time).
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  root.textContent = "";
  // The same for a page rendered here from scratch (a deep link such as /resultat/2019 with 500 rows): in steps
  // that let the browser breathe, rather than as one long task. The screens the address opens on first: their code
  // is usually on its way already (routes.tsx, preloadScreens), and on the race screen the phone's copies of its
  // data are read meanwhile; never wait for them longer than FIRST_SCREEN_WAIT_MS.
  const reactRoot = createRoot(root);
  const render = () =>
    startTransition(() => {
      reactRoot.render(app);
    });
  const waited = new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS));
  const screens = preloadScreens(location.pathname, queryClient);
  // The race screen draws from the phone's own copies before any network answer (features/race-day/race-copies.ts).
  const copies = location.pathname.startsWith("/admin/race/")
    ? import("./features/race-day/race-copies").then((m) => m.fromPhoneCopies(location.pathname, queryClient))
    : undefined;
  void Promise.race([Promise.all([screens, copies]), waited]).then(render, render);
}
