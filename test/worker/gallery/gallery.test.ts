/**
 * The photo galleries through the real Worker: the photos from the R2 bucket (only the stored widths, long
 * immutable caching, ETag/304, 404 for a missing object), the year page /galleri/{year} (the build's page for a
 * year with photos, 404 with the shell and a Swedish title for an unknown year, an empty list or a non-year) and
 * /api/gallery's cards. As in pages.test.ts, ASSETS is an in-memory asset server (the test environment has no
 * built SPA).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { galleryYears, IMAGE_WIDTHS, parseGalleryList } from "../../../src/shared/gallery";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import { replaceGallery } from "../../../src/worker/gallery/gallery-db";
import { IMAGE_CACHE } from "../../../src/worker/gallery/routes";
import { call, get } from "../helpers";

const SHELL =
  '<!doctype html><html lang="sv"><head><meta charset="utf-8" /><title>Byloppet</title>' +
  '<meta name="description" content="Byloppet – ett lopp för hela familjen." /></head>' +
  '<body><div id="root"></div></body></html>';
const yearPage = (year: number) =>
  `<!doctype html><html lang="sv"><head><title>Galleri ${year} – Byloppet</title></head><body>` +
  `<div id="root" data-prerendered="/galleri/${year}"><h1>Galleri ${year}</h1></div></body></html>`;

/** Static assets as the build leaves them: the shell, and galleri/{year}.html for the years of the index. */
function assetServer() {
  const requests: string[] = [];
  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const { pathname } = new URL(new Request(input, init).url);
      requests.push(pathname);
      const year = /^\/galleri\/(\d{4})$/.exec(pathname)?.[1];
      const body =
        pathname === "/" ? SHELL : year && galleryYears(SEASON.year).includes(Number(year)) ? yearPage(+year) : null;
      if (body === null) return new Response("not found", { status: 404 });
      return new Response(body, { headers: { "content-type": "text/html; charset=utf-8", etag: '"v1"' } });
    },
    connect() {
      throw new Error("not used");
    },
  };
  return { fetcher: fetcher as unknown as Fetcher, requests };
}

function open(path: string) {
  const assets = assetServer();
  return call(path, {
    headers: { "sec-fetch-mode": "navigate", accept: "text/html" },
    env: { ASSETS: assets.fetcher },
  }).then((res) => ({ res, requests: assets.requests }));
}

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

describe("GET /galleri-bilder/{year}/{name}-{width}.jpg", () => {
  beforeAll(async () => {
    for (const width of IMAGE_WIDTHS) {
      await env.GALLERY.put(`2019/abc123-${width}.jpg`, JPEG, { httpMetadata: { contentType: "image/jpeg" } });
    }
    // Stored under widths the site never makes: never served.
    await env.GALLERY.put("2019/abc123-500.jpg", JPEG);
    await env.GALLERY.put("2019/abc123-1280.png", JPEG);
  });

  it("serves every stored width as a JPEG cached for a year, with R2's ETag", async () => {
    for (const width of IMAGE_WIDTHS) {
      const res = await get(`/galleri-bilder/2019/abc123-${width}.jpg`);
      expect(res.status, String(width)).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(res.headers.get("cache-control")).toBe(IMAGE_CACHE);
      expect(IMAGE_CACHE).toContain("immutable");
      expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(JPEG);
    }
  });

  it("answers 304 without a body to the same ETag, and the photo to another", async () => {
    const first = await get("/galleri-bilder/2019/abc123-320.jpg");
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();
    const again = await get("/galleri-bilder/2019/abc123-320.jpg", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe(IMAGE_CACHE);
    expect(await again.text()).toBe("");
    const other = await get("/galleri-bilder/2019/abc123-320.jpg", { headers: { "if-none-match": '"nope"' } });
    expect(other.status).toBe(200);
    expect((await other.arrayBuffer()).byteLength).toBe(JPEG.length);
  });

  it("answers HEAD with the headers and no body", async () => {
    const res = await call("/galleri-bilder/2019/abc123-640.jpg", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(await res.text()).toBe("");
  });

  it("answers 404 with a Swedish message for a missing photo, a width the site never makes and other paths", async () => {
    for (const path of [
      "/galleri-bilder/2019/saknas-320.jpg",
      "/galleri-bilder/2018/abc123-320.jpg",
      "/galleri-bilder/2019/abc123-500.jpg",
      "/galleri-bilder/2019/abc123-1280.png",
      "/galleri-bilder/2019/abc123-99999.jpg",
      "/galleri-bilder/2019/ABC123-320.jpg",
      "/galleri-bilder/19/abc123-320.jpg",
      "/galleri-bilder/2019/..%2F2019%2Fabc123-320.jpg",
      "/galleri-bilder/2019/abc123.jpg",
      "/galleri-bilder/2019",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: string }).error, path).toMatch(/finns inte|Hittades inte/);
    }
  });
});

describe("GET /galleri/{year}", () => {
  const urls = (year: number, n: number) =>
    Array.from({ length: n }, (_, i) => `/galleri-bilder/${year}/p${i}-1280.jpg`);

  beforeAll(async () => {
    await replaceGallery(database(env.DB), 2019, urls(2019, 12));
    await replaceGallery(database(env.DB), 2031, urls(2031, 3));
    await replaceGallery(database(env.DB), 2017, []);
  });

  it("serves the build's page of a year with photos, with the flags and og:url", async () => {
    const { res, requests } = await open("/galleri/2019");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root" data-prerendered="/galleri/2019"><h1>Galleri 2019</h1>');
    expect(html).toMatch(/<html[^>]*data-registration-button="(open|closed)"/);
    expect(new URL(meta(html, "og:url")!).pathname).toBe("/galleri/2019");
    expect(requests).toEqual(["/galleri/2019"]);
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("serves the shell with the year's title and sharing tags for photos of a year the build did not render", async () => {
    const { res, requests } = await open("/galleri/2031");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain("<title>Galleri 2031 – Byloppet</title>");
    expect(meta(html, "og:title")).toBe("Galleri 2031 – Byloppet");
    expect(meta(html, "description")).toMatch(/2031/);
    expect(requests).toEqual(["/"]);
  });

  it("puts the year's photo count on <html>, so the page reserves the grid's height before the photos come", async () => {
    const htmlTag = async (path: string) => /<html[^>]*>/.exec(await (await open(path)).res.text())![0];
    const built = await htmlTag("/galleri/2019");
    expect(built).toContain('data-gallery-year="2019"');
    expect(built).toContain('style="--gallery-photos: 12"');
    const shell = await htmlTag("/galleri/2031");
    expect(shell).toContain('data-gallery-year="2031"');
    expect(shell).toContain('style="--gallery-photos: 3"');
    for (const path of ["/galleri/1999", "/galleri/2017", "/galleri/abc"]) {
      const missing = await htmlTag(path);
      expect(missing, path).not.toContain("data-gallery-year");
      expect(missing, path).not.toContain("--gallery-photos");
    }
  });

  it("redirects the address with a trailing slash to the year's page", async () => {
    const { res, requests } = await open("/galleri/2019/");
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, "http://x").pathname).toBe("/galleri/2019");
    expect(requests).toEqual([]);
  });

  it("answers 404 with the shell and a Swedish title for an unknown year, an empty list and a non-year", async () => {
    for (const path of [
      "/galleri/1999",
      "/galleri/2017",
      "/galleri/2016",
      "/galleri/abc",
      "/galleri/20190",
      "/galleri/2019/extra",
    ]) {
      const { res, requests } = await open(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).toContain("<title>Galleri saknas – Byloppet</title>");
      expect(meta(html, "description"), path).toMatch(/inget galleri/);
      expect(new URL(meta(html, "og:url")!).pathname, path).toBe(path);
      // Never the pre-rendered page of a year (it would show a gallery that is not there).
      expect(requests, path).toEqual(["/"]);
    }
  });
});

describe("GET /api/gallery and /img_{year}.txt", () => {
  beforeAll(async () => {
    await replaceGallery(database(env.DB), 2020, [
      "/galleri-bilder/2020/aaa-640.jpg",
      "/galleri-bilder/2020/bbb-1280.jpg",
    ]);
    await replaceGallery(database(env.DB), 2021, ["https://example.org/bild.jpg"]);
  });

  it("lists each year with photos, newest first, with its count and first photo as cover", async () => {
    const body = (await (await get("/api/gallery")).json()) as {
      years: number[];
      galleries: { year: number; count: number; cover: string }[];
    };
    expect(body.years).toEqual([...body.years].sort((a, b) => b - a));
    expect(body.galleries.map((g) => g.year)).toEqual(body.years);
    expect(body.galleries.find((g) => g.year === 2020)).toEqual({
      year: 2020,
      count: 2,
      cover: "/galleri-bilder/2020/aaa-640.jpg",
    });
    expect(body.galleries.find((g) => g.year === 2021)?.cover).toBe("https://example.org/bild.jpg");
  });

  it("serves the list as URLs a browser can open, which the pages expand into their sizes", async () => {
    const res = await get("/img_2020.txt");
    expect(res.status).toBe(200);
    const photos = parseGalleryList(await res.text());
    expect(photos.map((p) => p.widths)).toEqual([
      [160, 320, 640],
      [160, 320, 640, 1280],
    ]);
    expect(photos[1]!.url).toBe("/galleri-bilder/2020/bbb-1280.jpg");
  });
});
