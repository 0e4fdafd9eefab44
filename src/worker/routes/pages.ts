/**
 * The pre-rendered public pages (made at build by scripts/prerender.mjs), so a phone gets their content in the
 * first response. `run_worker_first` (wrangler.toml) sends exactly these paths here rather than to the static
 * assets: GET / gets dist/client/_landing.html, and /allmanna-villkor, /banor, /resultat, /startlistor and
 * /galleri get their own '<name>.html'. The static index.html must stay the empty SPA shell for deep links
 * (/anmalan/2, /admin/race, /galleri/2024), which never pass through here.
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
};

/** The empty SPA shell: what a page gets when it was not pre-rendered (vite dev, a build without prerender). */
const SHELL_PATH = "/";

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

/** The page with the flags on its <html> element, under the ETag `flagEtag` made for them. */
export function withSeasonFlags(page: Response, flags: SeasonFlags, etag: string | null): Response {
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  headers.delete("cf-cache-status");
  headers.set("cache-control", "no-cache");
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

/**
 * The asset's ETag plus the flags, so a browser's cached copy is reused while nothing changed and refetched when
 * the build or a flag did.
 */
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

for (const [path, assetPath] of Object.entries(PRERENDERED_PAGES)) {
  pagesRoutes.get(path, async (c) => {
    const flags = seasonFlags(c.var.clock.now());
    let page = await fetchAsset(c.env.ASSETS, c.req.raw, assetPath);
    if (!isHtml(page)) {
      // Not pre-rendered (vite dev, or a build without the prerender step): the empty shell still works.
      await page.body?.cancel();
      page = await fetchAsset(c.env.ASSETS, c.req.raw, SHELL_PATH);
    }
    if (!isHtml(page)) return page;

    const etag = flagEtag(page.headers.get("etag"), flags);
    if (etag && c.req.header("if-none-match") === etag) {
      await page.body?.cancel();
      return new Response(null, { status: 304, headers: { etag, "cache-control": "no-cache" } });
    }
    return withSeasonFlags(page, flags, etag);
  });
}
