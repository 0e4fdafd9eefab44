/**
 * GET /: the pre-rendered landing page (dist/client/_landing.html, made by scripts/prerender.mjs), so a phone
 * gets the hero as HTML in the first response. `run_worker_first` sends "/" here rather than to the static
 * index.html, which must stay the empty SPA shell for deep links (/anmalan/2, /admin/race).
 *
 * The time-dependent parts (registration button until the cut-off, bib-pickup banner in its window) are set
 * here from the server clock as attributes on <html>, outside React's root: the first paint is already right,
 * and hydration sees exactly the HTML it rendered at build time. The SPA keeps the attributes current from
 * /api/config (src/web/features/config/season-flags.tsx).
 */
import { Hono } from "hono";
import { showBibPickupBanner, showRegistrationButton } from "../../shared/season-rules";
import type { AppEnv } from "../env";

export const pagesRoutes = new Hono<AppEnv>();

/** Served from _landing.html; html_handling auto-trailing-slash answers "/_landing.html" with a redirect. */
const LANDING_PATH = "/_landing";

/** Headers passed on to the asset server: the page is rewritten here, so its validators are ours, not its. */
const FORWARDED = ["accept", "accept-encoding", "accept-language", "user-agent", "sec-fetch-mode", "sec-fetch-dest"];

export interface SeasonFlags {
  registrationButton: "open" | "closed";
  bibBanner: "on" | "off";
}

export function seasonFlags(now: number): SeasonFlags {
  return {
    registrationButton: showRegistrationButton(now) ? "open" : "closed",
    bibBanner: showBibPickupBanner(now) ? "on" : "off",
  };
}

/**
 * The page with the flags on its <html> element. The ETag is the asset's plus the flags, so a browser's cached
 * copy is reused while nothing changed and refetched when the build or a flag did.
 */
export function withSeasonFlags(page: Response, flags: SeasonFlags): Response {
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  headers.delete("cf-cache-status");
  headers.set("cache-control", "no-cache");
  const etag = flagEtag(page.headers.get("etag"), flags);
  if (etag) headers.set("etag", etag);
  else headers.delete("etag");
  const unrewritten = new Response(page.body, { status: 200, headers });
  return new HTMLRewriter()
    .on("html", {
      element(el) {
        el.setAttribute("data-registration-button", flags.registrationButton);
        el.setAttribute("data-bib-banner", flags.bibBanner);
      },
    })
    .transform(unrewritten);
}

function flagEtag(assetEtag: string | null, flags: SeasonFlags): string | null {
  if (!assetEtag) return null;
  const tag = assetEtag.replace(/^W\//, "").replace(/"/g, "");
  return `W/"${tag}-${flags.registrationButton}-${flags.bibBanner}"`;
}

async function fetchAsset(assets: Fetcher, incoming: Request, path: string): Promise<Response> {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = incoming.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return assets.fetch(new Request(new URL(path, incoming.url), { method: "GET", headers }));
}

const isHtml = (res: Response) => res.ok && (res.headers.get("content-type") ?? "").includes("text/html");

pagesRoutes.get("/", async (c) => {
  const flags = seasonFlags(c.var.clock.now());
  let page = await fetchAsset(c.env.ASSETS, c.req.raw, LANDING_PATH);
  if (!isHtml(page)) {
    // No pre-rendered landing (vite dev, or a build without the prerender step): the empty shell still works.
    await page.body?.cancel();
    page = await fetchAsset(c.env.ASSETS, c.req.raw, "/");
  }
  if (!isHtml(page)) return page;

  const etag = flagEtag(page.headers.get("etag"), flags);
  if (etag && c.req.header("if-none-match") === etag) {
    await page.body?.cancel();
    return new Response(null, { status: 304, headers: { etag, "cache-control": "no-cache" } });
  }
  return withSeasonFlags(page, flags);
});
