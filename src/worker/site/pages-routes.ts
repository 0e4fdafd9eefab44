/**
 * The pre-rendered public pages (made at build by scripts/prerender.mjs), so a phone gets their content in the
 * first response. `run_worker_first` (wrangler.toml) sends exactly these paths here rather than to the static
 * assets: GET / gets dist/client/_landing.html, and /allmanna-villkor, /banor, /resultat, /startlistor,
 * /galleri and /tidtagning get their own '<name>.html'. The static index.html must stay the empty SPA shell for deep links
 * (/anmalan/2, /admin/race, /galleri/2024), which never pass through here.
 *
 * The time-dependent parts (registration button until the cut-off, bib-pickup banner in its window) are set
 * here from the server clock as attributes on <html>, outside React's root: the first paint is already right,
 * and hydration sees exactly the HTML it rendered at build time. The SPA keeps the attributes current from
 * /api/config (src/web/lib/config/season-flags.tsx).
 *
 * The data pages, /startlistor and /resultat, get their data too: #root rendered on the Worker with it, and the
 * data itself right after #root for the browser's first render (data-pages.ts). Should that fail, the page built
 * at build time goes out as it is and fetches its data itself.
 */
import { Hono } from "hono";
import { ogUrlTag, socialMetaTags, type PageMeta } from "../../shared/page-meta";
import { galleryYearDescription, galleryYears } from "../../shared/gallery";
import { SEASON } from "../../shared/season";
import { isOnSiteRegistrationDay, showBibPickupBanner, showRegistrationButton } from "../../shared/season-rules";
import { database } from "../db/client";
import { gallerySummary } from "../gallery/gallery-db";
import { seasonRaceUnderWay } from "../race-day/races-db";
import { hasResultsForYear } from "../results/results-db";
import { isDataPage } from "../../shared/page-render";
import { dataPage, type DataPage } from "./data-pages";
import type { AppEnv } from "../env";

export const pagesRoutes = new Hono<AppEnv>();

/**
 * Request path → the asset holding its pre-rendered HTML. html_handling auto-trailing-slash serves '<name>.html'
 * at '/<name>' (and answers "/<name>.html" with a redirect). Keep in step with PRERENDER_PAGES
 * (src/web/entry-prerender.tsx) and run_worker_first.
 */
export const PRERENDERED_PAGES: Readonly<Record<string, string>> = {
  "/": "/_landing",
  "/allmanna-villkor": "/allmanna-villkor",
  "/banor": "/banor",
  "/resultat": "/resultat",
  "/startlistor": "/startlistor",
  "/galleri": "/galleri",
  "/tidtagning": "/tidtagning",
};

/** The empty SPA shell: what a page gets when it was not pre-rendered (vite dev, a build without prerender). */
const SHELL_PATH = "/";

/** Headers passed on to the asset server: the page is rewritten here, so its validators are ours, not its. */
const FORWARDED = ["accept", "accept-encoding", "accept-language", "user-agent", "sec-fetch-mode", "sec-fetch-dest"];

export interface SeasonFlags {
  registrationButton: "open" | "closed";
  bibBanner: "on" | "off";
  /** Race morning, online registration closed: the closed call-to-action points to the box office. */
  onSite: "on" | "off";
}

export function seasonFlags(now: number): SeasonFlags {
  return {
    registrationButton: showRegistrationButton(now) ? "open" : "closed",
    bibBanner: showBibPickupBanner(now) ? "on" : "off",
    onSite: isOnSiteRegistrationDay(now) ? "on" : "off",
  };
}

export interface PageHead {
  /** Added to <head>: the page's og:url, and for a page the build did not render, its sharing tags. */
  append: string;
  /** Replaces the shell's title and description (a page the build did not render). */
  meta?: PageMeta;
  /** Set on <html>, like the flags (outside React's root, so hydration is untouched). */
  htmlAttributes?: Readonly<Record<string, string>>;
  /** A data page: the inside of #root rendered with its data, and the data's script placed right after #root. */
  root?: { html: string; after: string };
  /** More headers for the answer (the edge cache's lifetime of a data page). */
  headers?: Readonly<Record<string, string>>;
}

/** The page with the flags on its <html> element, under the ETag `flagEtag` made for them. */
export function withSeasonFlags(
  page: Response,
  flags: SeasonFlags,
  etag: string | null,
  head: PageHead = { append: "" },
  status = 200,
): Response {
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  headers.delete("cf-cache-status");
  headers.set("cache-control", "no-cache");
  if (etag) headers.set("etag", etag);
  else headers.delete("etag");
  for (const [name, value] of Object.entries(head.headers ?? {})) headers.set(name, value);
  const unrewritten = new Response(page.body, { status, headers });
  const rewriter = new HTMLRewriter()
    .on("html", {
      element(el) {
        el.setAttribute("data-registration-button", flags.registrationButton);
        el.setAttribute("data-bib-banner", flags.bibBanner);
        el.setAttribute("data-on-site", flags.onSite);
        for (const [name, value] of Object.entries(head.htmlAttributes ?? {})) el.setAttribute(name, value);
      },
    })
    .on("head", {
      element(el) {
        if (head.append) el.append(head.append, { html: true });
      },
    });
  const root = head.root;
  if (root) {
    rewriter.on("div#root", {
      element(el) {
        el.setInnerContent(root.html, { html: true });
        el.after(root.after, { html: true });
      },
    });
  }
  const meta = head.meta;
  if (meta) {
    rewriter
      .on("title", {
        element(el) {
          el.setInnerContent(meta.title);
        },
      })
      .on('meta[name="description"]', {
        element(el) {
          el.setAttribute("content", meta.description);
        },
      });
  }
  return rewriter.transform(unrewritten);
}

/**
 * The asset's ETag plus the flags (and a data page's data), so a browser's cached copy is reused while nothing
 * changed and refetched when the build, a flag or the data did.
 */
function flagEtag(assetEtag: string | null, flags: SeasonFlags, dataDigest?: string): string | null {
  if (!assetEtag) return null;
  const tag = assetEtag.replace(/^W\//, "").replace(/"/g, "");
  // Race morning's on-site text changes the page too (its own tag, so a cached closed page is not reused).
  const onSite = flags.onSite === "on" ? "-onsite" : "";
  return `W/"${tag}-${flags.registrationButton}-${flags.bibBanner}${onSite}${dataDigest ? `-${dataDigest}` : ""}"`;
}

/**
 * A data page (its races, results and records in the HTML) may be kept by the edge a few seconds and answered
 * stale while it is rendered anew: what changes by the second (a running race) reaches the page by its socket.
 */
const DATA_PAGE_EDGE = { "cloudflare-cdn-cache-control": "public, max-age=5, stale-while-revalidate=30" };

async function fetchAsset(assets: Fetcher, incoming: Request, path: string): Promise<Response> {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = incoming.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return assets.fetch(new Request(new URL(path, incoming.url), { method: "GET", headers }));
}

const isHtml = (res: Response) => res.ok && (res.headers.get("content-type") ?? "").includes("text/html");

for (const [path, assetPath] of Object.entries(PRERENDERED_PAGES)) {
  pagesRoutes.get(path, async (c) => {
    const flags = seasonFlags(c.var.clock.now());
    let page = await fetchAsset(c.env.ASSETS, c.req.raw, assetPath);
    let prerendered = true;
    if (!isHtml(page)) {
      // Not pre-rendered (vite dev, or a build without the prerender step): the empty shell still works.
      await page.body?.cancel();
      page = await fetchAsset(c.env.ASSETS, c.req.raw, SHELL_PATH);
      prerendered = false;
    }
    if (!isHtml(page)) return page;

    let data: DataPage | null = null;
    if (prerendered && isDataPage(path)) {
      try {
        data = await dataPage(c.env, database(c.env.DB), path, c.var.clock.now());
      } catch (err) {
        // The page without its data still works: it fetches the data itself, as before.
        console.error("data page not rendered; answering its shell", path, err);
      }
    }
    const extra = data ? DATA_PAGE_EDGE : undefined;
    const etag = flagEtag(page.headers.get("etag"), flags, data?.digest);
    if (etag && c.req.header("if-none-match") === etag) {
      await page.body?.cancel();
      return new Response(null, { status: 304, headers: { etag, "cache-control": "no-cache", ...extra } });
    }
    return withSeasonFlags(page, flags, etag, {
      append: ogUrlTag(c.env.PUBLIC_ORIGIN, path),
      root: data ? { html: data.root, after: data.script } : undefined,
      headers: extra,
    });
  });
}

/**
 * An older year's results: /resultat/{year} (src/web/features/results/results-year-page.tsx). Why this address
 * and not /resultat?ar=2019: `/resultat/*` already runs the Worker first for the results files
 * (/resultat/resultat-2019-56.csv, src/worker/results/routes.ts), and a file name is never four digits, so the two cannot meet
 * (app.ts mounts these page routes before the data routes); a path is a real page to share and bookmark; and
 * being here, the page answers a real 404 for a year without results (with the SPA's Swedish message, never a
 * blank page), with its own title and sharing tags. The content comes from the results file in the browser (and,
 * for the current season, from its races once one is under way): it is the organiser's data, not the build's, so
 * it is not pre-rendered.
 */
pagesRoutes.get("/resultat/:year{[0-9]{4}}", async (c) => {
  const year = Number(c.req.param("year"));
  const db = database(c.env.DB);
  // The current season's page exists as soon as one of its races is under way (its results come from the races).
  const found = (await hasResultsForYear(db, year)) || (year === SEASON.year && (await seasonRaceUnderWay(db, year)));
  const meta: PageMeta = found
    ? {
        title: `Resultat ${year} – ${SEASON.siteName}`,
        description: `Resultaten från ${SEASON.siteName} ${year} på alla distanser: placering, namn, tid, klass och förening.`,
      }
    : {
        title: `Resultat saknas – ${SEASON.siteName}`,
        description: `Det finns inga resultat från ${SEASON.siteName} ${year}.`,
      };
  const page = await fetchAsset(c.env.ASSETS, c.req.raw, SHELL_PATH);
  if (!isHtml(page)) return page;
  const head = socialMetaTags(meta, SEASON.siteName) + ogUrlTag(c.env.PUBLIC_ORIGIN, c.req.path);
  return withSeasonFlags(page, seasonFlags(c.var.clock.now()), null, { append: head, meta }, found ? 200 : 404);
});

/**
 * One year's gallery: /galleri/{year} (src/web/features/gallery/gallery-year-page.tsx). `/galleri/*` runs the
 * Worker first (wrangler.toml), so every address below /galleri is answered here, never by the static assets:
 * - a year with photos (rows in D1): 200 with the page the build pre-rendered for it (`galleri/{year}.html`, the
 *   years of galleryYears: heading, text and the grid's reserved place; the photos come from /img_{year}.txt),
 *   or, for a year the build did not know (photos added for a newer year), the SPA shell with the year's title,
 *   description and sharing tags;
 * - "/galleri/2019/" redirects (301) to "/galleri/2019";
 * - anything else (an unknown year, a year with an empty list, "/galleri/abc", "/galleri/2019/x"): 404 with the
 *   shell, whose page then says in Swedish that the gallery does not exist (never a blank page).
 * A year with photos also gets its photo count on <html> (`data-gallery-year`, `--gallery-photos`): the page
 * reserves exactly the grid's height for the photos that are still on their way (theme.css), so neither does the
 * footer jump when they come nor is an empty band left under a short gallery.
 */
pagesRoutes.get("/galleri/*", async (c) => {
  // Everything after /galleri/: one segment of four digits is a year; "/galleri/2019/x" is no gallery.
  const id = c.req.path.slice("/galleri/".length);
  if (/^\d{4}\/$/.test(id)) return c.redirect(c.req.path.slice(0, -1), 301);
  const year = /^\d{4}$/.test(id) ? Number(id) : null;
  const gallery = year === null ? null : await gallerySummary(database(c.env.DB), year);
  const flags = seasonFlags(c.var.clock.now());
  const ogUrl = ogUrlTag(c.env.PUBLIC_ORIGIN, c.req.path);

  const htmlAttributes = gallery ? galleryHtmlAttributes(gallery.year, gallery.count) : undefined;

  if (gallery && galleryYears(SEASON.year).includes(gallery.year)) {
    const page = await fetchAsset(c.env.ASSETS, c.req.raw, `/galleri/${gallery.year}`);
    if (isHtml(page)) return withSeasonFlags(page, flags, null, { append: ogUrl, htmlAttributes });
    await page.body?.cancel();
  }

  const meta: PageMeta = gallery
    ? {
        title: `Galleri ${gallery.year} – ${SEASON.siteName}`,
        description: galleryYearDescription(SEASON.siteName, gallery.year),
      }
    : {
        title: `Galleri saknas – ${SEASON.siteName}`,
        description: `Det finns inget galleri på den adressen. Alla år med bilder från ${SEASON.siteName} finns under Galleri.`,
      };
  const page = await fetchAsset(c.env.ASSETS, c.req.raw, SHELL_PATH);
  if (!isHtml(page)) return page;
  const head = socialMetaTags(meta, SEASON.siteName) + ogUrl;
  return withSeasonFlags(page, flags, null, { append: head, meta, htmlAttributes }, gallery ? 200 : 404);
});

/** The year page's photo count, for its reserved grid (gallery-year-page.tsx keeps it current in the browser). */
export function galleryHtmlAttributes(year: number, count: number): Record<string, string> {
  return { "data-gallery-year": String(year), style: `--gallery-photos: ${Math.trunc(count)}` };
}
