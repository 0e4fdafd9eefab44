/**
 * The pre-rendered pages (GET / and the six static public pages) with the time-dependent switches set from the
 * server clock. The test environment has no built SPA (exports.default does not serve static assets), so the
 * ASSETS binding is an in-memory asset server holding the files the route reads; the route, the clock rules and
 * HTMLRewriter are the real ones; the data pages' #root is rendered on the Worker from the test D1. The built files
 * over a real server: test/e2e/shell-season.test.ts.
 */
import { describe, expect, it } from "vitest";
import { DATA_PAGES, isDataPage } from "../../../src/shared/page-render";
import { PRERENDERED_PAGES } from "../../../src/worker/site/pages-routes";
import { call } from "../helpers";

const SHELL =
  '<!doctype html><html lang="sv"><head><title>Byloppet</title></head><body><div id="root"></div></body></html>';
const LANDING =
  '<!doctype html><html lang="sv"><head><title>Byloppet 2025</title></head><body>' +
  '<div id="root" data-prerendered="/"><h1 class="hero-title">Byloppet 2025</h1></div></body></html>';

/** Answers like Workers static assets with auto-trailing-slash: '/_landing' is _landing.html, '/' is index.html. */
function assetServer(files: Record<string, string>) {
  const requests: Request[] = [];
  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const req = new Request(input, init);
      requests.push(req);
      const { pathname } = new URL(req.url);
      const file = pathname === "/" ? "index.html" : `${pathname.slice(1)}.html`;
      const body = files[file];
      if (body === undefined) return new Response("not found", { status: 404 });
      return new Response(body, {
        headers: { "content-type": "text/html; charset=utf-8", etag: `"${file}-v1"`, "content-length": "999" },
      });
    },
    connect() {
      throw new Error("not used");
    },
  };
  return { fetcher: fetcher as unknown as Fetcher, requests };
}

async function landingAt(
  iso: string,
  files: Record<string, string> = { "index.html": SHELL, "_landing.html": LANDING },
  headers: Record<string, string> = {},
) {
  const assets = assetServer(files);
  const res = await call("/", {
    headers: { "sec-fetch-mode": "navigate", ...headers },
    env: { NOW: iso, NOW_SET_AT: String(Date.now()), ASSETS: assets.fetcher },
  });
  return { res, assets };
}

function htmlTag(body: string): string {
  return /<html[^>]*>/.exec(body)?.[0] ?? "";
}

describe("GET / serves the pre-rendered landing page", () => {
  it("answers the landing's HTML, asked for as /_landing without the visitor's validators", async () => {
    const { res, assets } = await landingAt("2025-08-25T10:00:00+02:00", undefined, {
      "if-none-match": '"_landing.html-v1"',
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('<div id="root" data-prerendered="/"><h1 class="hero-title">Byloppet 2025</h1>');
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(assets.requests.map((r) => new URL(r.url).pathname)).toEqual(["/_landing"]);
    expect(assets.requests[0]!.headers.get("if-none-match")).toBeNull();
    expect(assets.requests[0]!.headers.get("sec-fetch-mode")).toBe("navigate");
  });

  it("falls back to the empty SPA shell when no landing was pre-rendered (vite dev)", async () => {
    const missing = await landingAt("2025-08-25T10:00:00+02:00", { "index.html": SHELL });
    expect(missing.res.status).toBe(200);
    const body = await missing.res.text();
    expect(body).toContain('<div id="root"></div>');
    expect(htmlTag(body)).toContain('data-registration-button="open"');
    expect(missing.assets.requests.map((r) => new URL(r.url).pathname)).toEqual(["/_landing", "/"]);
  });
});

describe("the registration button and the bib-pickup banner follow the server clock", () => {
  const cases: [string, "open" | "closed", "on" | "off", "on" | "off"][] = [
    ["2025-08-25T10:00:00+02:00", "open", "off", "off"],
    ["2025-09-05T23:59:59+02:00", "open", "off", "off"],
    // Banner: from 00:00 seven days before race day (2025-09-06) ...
    ["2025-09-06T00:00:00+02:00", "open", "on", "off"],
    // Online registration closes after 12 Sep; on race day the closed registration points to the box office.
    ["2025-09-12T23:59:59+02:00", "open", "on", "off"],
    ["2025-09-13T08:00:00+02:00", "open", "on", "on"],
    // Button: until 13 Sep 2025 12:00.
    ["2025-09-13T11:59:59+02:00", "open", "on", "on"],
    ["2025-09-13T12:00:00+02:00", "closed", "on", "on"],
    // ... until the end of the day after race day.
    ["2025-09-14T00:00:00+02:00", "closed", "on", "off"],
    ["2025-09-14T23:59:59+02:00", "closed", "on", "off"],
    ["2025-09-15T00:00:00+02:00", "closed", "off", "off"],
  ];

  for (const [iso, button, banner, onSite] of cases) {
    it(`at ${iso}: button ${button}, banner ${banner}, on-site registration ${onSite}`, async () => {
      const { res } = await landingAt(iso);
      const tag = htmlTag(await res.text());
      expect(tag).toContain(`data-registration-button="${button}"`);
      expect(tag).toContain(`data-bib-banner="${banner}"`);
      expect(tag).toContain(`data-on-site="${onSite}"`);
      expect(tag).toContain('lang="sv"');
      expect(res.headers.get("etag")).toBe(
        `W/"_landing.html-v1-${button}-${banner}${onSite === "on" ? "-onsite" : ""}"`,
      );
    });
  }
});

describe("revalidation", () => {
  it("answers 304 to the ETag it gave while nothing changed, and the full page once a flag changed", async () => {
    const first = await landingAt("2025-09-13T11:00:00+02:00");
    const etag = first.res.headers.get("etag")!;
    expect(etag).toBe('W/"_landing.html-v1-open-on-onsite"');
    await first.res.text();

    const same = await landingAt("2025-09-13T11:30:00+02:00", undefined, { "if-none-match": etag });
    expect(same.res.status).toBe(304);
    expect(await same.res.text()).toBe("");

    const afterCutOff = await landingAt("2025-09-13T12:30:00+02:00", undefined, { "if-none-match": etag });
    expect(afterCutOff.res.status).toBe(200);
    expect(htmlTag(await afterCutOff.res.text())).toContain('data-registration-button="closed"');

    // The day after: still closed, but no longer pointing to registration on site.
    const closedOnSite = (await landingAt("2025-09-13T13:00:00+02:00")).res.headers.get("etag")!;
    const dayAfter = await landingAt("2025-09-14T09:00:00+02:00", undefined, { "if-none-match": closedOnSite });
    expect(dayAfter.res.status).toBe(200);
    expect(htmlTag(await dayAfter.res.text())).toContain('data-on-site="off"');
  });

  it("drops the asset's content-length (the rewritten page differs in size)", async () => {
    const { res } = await landingAt("2025-08-25T10:00:00+02:00");
    const body = await res.text();
    expect(res.headers.get("content-length") ?? String(new TextEncoder().encode(body).length)).toBe(
      String(new TextEncoder().encode(body).length),
    );
  });
});

/** What `npm run build` writes for the six other pre-rendered pages (scripts/prerender.mjs). */
const STATIC_PAGES = ["/allmanna-villkor", "/banor", "/resultat", "/startlistor", "/galleri", "/tidtagning"] as const;

const prerendered = (path: string) =>
  `<!doctype html><html lang="sv"><head><title>${path}</title></head><body>` +
  `<div id="root" data-prerendered="${path}"><h1>Sidan ${path}</h1></div></body></html>`;

const BUILT: Record<string, string> = {
  "index.html": SHELL,
  "_landing.html": LANDING,
  ...Object.fromEntries(STATIC_PAGES.map((p) => [`${p.slice(1)}.html`, prerendered(p)])),
};

async function pageAt(
  path: string,
  iso: string,
  files: Record<string, string> = BUILT,
  headers: Record<string, string> = {},
) {
  const assets = assetServer(files);
  const res = await call(path, {
    headers: { "sec-fetch-mode": "navigate", ...headers },
    env: { NOW: iso, NOW_SET_AT: String(Date.now()), ASSETS: assets.fetcher },
  });
  return { res, assets };
}

describe("the other pre-rendered pages get the same switches as /", () => {
  it("serves exactly / and the six static pages", () => {
    expect(Object.keys(PRERENDERED_PAGES).sort()).toEqual(["/", ...STATIC_PAGES].sort());
  });

  for (const path of STATIC_PAGES) {
    it(`${path}: its own pre-rendered HTML with the flags of the server clock`, async () => {
      const before = await pageAt(path, "2025-09-05T12:00:00+02:00");
      expect(before.res.status).toBe(200);
      expect(before.res.headers.get("content-type")).toMatch(/^text\/html/);
      const body = await before.res.text();
      if (isDataPage(path)) {
        // A data page's root is rendered on the Worker with its data, and the data follows as a JSON script.
        expect(body).toContain(`<div id="root" data-prerendered="${path}"><div class="site">`);
        expect(body).not.toContain(`<h1>Sidan ${path}</h1>`);
        expect(body).toMatch(/<\/div><script type="application\/json" id="page-data">\{"queries":\[/);
        expect(before.res.headers.get("etag")).toMatch(
          new RegExp(`^W/"${path.slice(1)}\\.html-v1-open-off-[0-9a-f]{8}"$`),
        );
        expect(before.res.headers.get("cloudflare-cdn-cache-control")).toBe(
          "public, max-age=5, stale-while-revalidate=30",
        );
      } else {
        expect(body).toContain(`<div id="root" data-prerendered="${path}"><h1>Sidan ${path}</h1></div>`);
        expect(before.res.headers.get("etag")).toBe(`W/"${path.slice(1)}.html-v1-open-off"`);
      }
      expect(htmlTag(body)).toContain('data-registration-button="open"');
      expect(htmlTag(body)).toContain('data-bib-banner="off"');
      expect(before.assets.requests.map((r) => new URL(r.url).pathname)).toEqual([path]);

      const raceDayAfternoon = await pageAt(path, "2025-09-13T12:00:00+02:00");
      const tag = htmlTag(await raceDayAfternoon.res.text());
      expect(tag).toContain('data-registration-button="closed"');
      expect(tag).toContain('data-bib-banner="on"');
    });
  }

  it("a data page whose data cannot be read goes out as built, and fetches its data in the browser", async () => {
    const down = () => {
      throw new Error("D1 nere");
    };
    for (const path of DATA_PAGES) {
      const assets = assetServer(BUILT);
      const res = await call(path, {
        headers: { "sec-fetch-mode": "navigate" },
        // A moment no earlier test rendered this page at, so no copy of it is fresh.
        env: {
          NOW: "2025-10-01T12:00:00+02:00",
          NOW_SET_AT: String(Date.now()),
          ASSETS: assets.fetcher,
          DB: {
            prepare: down,
            batch: down,
            exec: down,
          } as unknown as D1Database,
        },
      });
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(body).toContain(`<div id="root" data-prerendered="${path}"><h1>Sidan ${path}</h1></div>`);
      expect(body).not.toContain("page-data");
      expect(res.headers.get("etag")).toBe(`W/"${path.slice(1)}.html-v1-closed-off"`);
      expect(res.headers.get("cloudflare-cdn-cache-control")).toBeNull();
    }
  });

  it("answers 304 to its own ETag while nothing changed, and not to another page's", async () => {
    const first = await pageAt("/startlistor", "2025-09-13T11:00:00+02:00");
    const etag = first.res.headers.get("etag")!;
    await first.res.text();

    const same = await pageAt("/startlistor", "2025-09-13T11:30:00+02:00", BUILT, { "if-none-match": etag });
    expect(same.res.status).toBe(304);
    expect(same.res.headers.get("etag")).toBe(etag);

    const other = await pageAt("/banor", "2025-09-13T11:30:00+02:00", BUILT, { "if-none-match": etag });
    expect(other.res.status).toBe(200);
    expect(await other.res.text()).toContain('data-prerendered="/banor"');

    const afterCutOff = await pageAt("/startlistor", "2025-09-13T12:30:00+02:00", BUILT, { "if-none-match": etag });
    expect(afterCutOff.res.status).toBe(200);
    expect(htmlTag(await afterCutOff.res.text())).toContain('data-registration-button="closed"');
  });

  it("falls back to the empty SPA shell, with flags, when the page was not pre-rendered (vite dev)", async () => {
    const { res, assets } = await pageAt("/galleri", "2025-09-10T12:00:00+02:00", { "index.html": SHELL });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('<div id="root"></div>');
    expect(htmlTag(body)).toContain('data-bib-banner="on"');
    expect(assets.requests.map((r) => new URL(r.url).pathname)).toEqual(["/galleri", "/"]);
  });

  it("gives deep links below a page the empty SPA shell, never that page's pre-rendered HTML", async () => {
    // run_worker_first names the page paths exactly; a deep link matches no built file and reaches the Worker's
    // SPA fallback (src/worker/site/spa-fallback.ts, test/worker/site/spa-fallback.test.ts), which must not claim
    // the page above it. (/galleri/{year} is the Worker's own page: test/worker/gallery.test.ts.)
    for (const path of ["/banor/", "/startlistor/extra", "/anmalan/2"]) {
      const { res, assets } = await pageAt(path, "2025-09-10T12:00:00+02:00");
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe(SHELL);
      expect(
        assets.requests.map((r) => new URL(r.url).pathname),
        path,
      ).toEqual(["/"]);
    }
  });
});
