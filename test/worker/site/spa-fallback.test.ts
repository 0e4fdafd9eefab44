/**
 * What the Worker answers for an address no route answered (src/worker/site/spa-fallback.ts), which since
 * `not_found_handling = "none"` includes every address that matches no built file: a missing /assets/ file is a
 * 404 nothing keeps, the API keeps its JSON 404, and a deep link gets the SPA (the admin area's start pages, the
 * race screen's with its race's GET named). The asset server is an in-memory one (the test environment has no
 * built SPA); the same over the real server and its files: test/e2e/offline.test.ts.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers";

const page = (name: string, head = "") =>
  `<!doctype html><html lang="sv"><head><meta charset="utf-8" />${head}</head><body><div id="root"></div><!--${name}--></body></html>`;
const CONFIG_PRELOAD = '<link rel="preload" as="fetch" crossorigin href="/api/config">';

const FILES: Record<string, string> = {
  "/": page("shell"),
  "/admin/_shell": page("admin", CONFIG_PRELOAD),
  "/admin/_race-shell": page("race", CONFIG_PRELOAD),
};

/** Answers like Workers static assets (auto-trailing-slash): the page at its address, else 404. */
function assetServer(files: Record<string, string>) {
  const asked: string[] = [];
  const fetcher = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const { pathname } = new URL(new Request(input, init).url);
      asked.push(pathname);
      const body = files[pathname];
      if (body === undefined) return new Response("not found", { status: 404 });
      return new Response(body, {
        headers: { "content-type": "text/html; charset=utf-8", etag: '"v1"', "cache-control": "public, max-age=0" },
      });
    },
    connect() {
      throw new Error("not used");
    },
  };
  return { fetcher: fetcher as unknown as Fetcher, asked };
}

async function open(path: string, init: RequestInit = {}, files = FILES) {
  const assets = assetServer(files);
  const res = await call(path, { ...init, env: { ASSETS: assets.fetcher } });
  return { res, asked: assets.asked, body: await res.text() };
}

describe("a missing built file", () => {
  it.each(["/assets/missing.js", "/assets/admin/race-page-Gone1234.js", "/assets/index-Old.css"])(
    "%s is 404, plain text, kept by nobody, and never the app's HTML",
    async (path) => {
      const { res, asked, body } = await open(path, { headers: { "sec-fetch-mode": "no-cors", accept: "*/*" } });
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(body).not.toContain("<html");
      expect(asked).toEqual([]);
    },
  );

  it("is a 404 for a navigation and a HEAD too", async () => {
    expect((await open("/assets/missing.js", { headers: { "sec-fetch-mode": "navigate" } })).res.status).toBe(404);
    expect((await open("/assets/missing.js", { method: "HEAD" })).res.status).toBe(404);
  });
});

describe("an unknown address of the server's own paths keeps its JSON 404", () => {
  it.each(["/api/nope", "/dev/nope", "/ws/nope", "/swish/nope", "/email"])("%s", async (path) => {
    const { res, asked, body } = await open(path, { headers: { accept: "text/html", "sec-fetch-mode": "navigate" } });
    expect(res.status).toBe(404);
    expect(JSON.parse(body)).toEqual({ error: "Hittades inte" });
    expect(asked).toEqual([]);
  });

  it("and so does anything but a GET or HEAD", async () => {
    const { res, asked } = await open("/anmalan/2", { method: "POST", headers: { "x-loppet-client": "1" } });
    expect(res.status).toBe(404);
    expect(asked).toEqual([]);
  });
});

describe("a deep link gets the app", () => {
  it("public: the empty shell, 200, revalidated on every load", async () => {
    const { res, asked, body } = await open("/anmalan/2", { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(body).toContain("<!--shell-->");
    expect(asked).toEqual(["/"]);
  });

  it("admin: the admin area's start page", async () => {
    const { res, asked, body } = await open("/admin/list-by-race");
    expect(res.status).toBe(200);
    expect(body).toContain("<!--admin-->");
    expect(asked).toEqual(["/admin/_shell"]);
  });

  it("the race screen: its own start page, with the race's GET named right after the config's", async () => {
    const { res, asked, body } = await open("/admin/race/race-250913-56");
    expect(res.status).toBe(200);
    expect(asked).toEqual(["/admin/_race-shell"]);
    expect(body).toContain(
      `${CONFIG_PRELOAD}\n    <link rel="preload" as="fetch" crossorigin href="/admin/api/races/get/race-250913-56">`,
    );
    expect(body).toContain("<!--race-->");
    // The page was changed here: the asset's validator no longer describes it.
    expect(res.headers.get("etag")).toBeNull();
  });

  it("a race id that is no race id gets the race screen's page without a preload", async () => {
    const { res, body } = await open("/admin/race/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(res.status).toBe(200);
    expect(body).toContain("<!--race-->");
    expect(body).not.toContain("/admin/api/races/get/");
    expect(body).not.toContain("<script>alert");
  });

  it("falls back to the plain shell when the start pages were not built (vite dev)", async () => {
    const { res, asked, body } = await open("/admin/race/race-250913-56", {}, { "/": page("shell") });
    expect(res.status).toBe(200);
    expect(body).toContain("<!--shell-->");
    expect(body).not.toContain("/admin/api/races/get/");
    expect(asked).toEqual(["/admin/_race-shell", "/"]);
  });
});
