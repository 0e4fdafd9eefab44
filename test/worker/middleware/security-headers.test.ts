/**
 * The browser's defences on every answer of the Worker (src/worker/middleware/security-headers.ts): pages, API
 * calls, files, 404s, 400s and the error handler's 500s; an answer passed on from the assets server (whose headers
 * cannot be changed) too; a route's own stricter header kept; a socket upgrade untouched. The policy follows the
 * configured address (wss:// and HSTS only over https) and names the map tiles' host when tiles are configured.
 * The static assets' copy of the same headers, read from `npm start`: test/e2e/security-headers.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { securityHeaders } from "../../../src/shared/security-headers";
import { unsubscribeToken } from "../../../src/worker/mass-email/mailings";
import { call, loginAdmin, openSocket, rawPost } from "../helpers";

const PRODUCTION = JSON.parse(env.TEST_PRODUCTION_VARS) as Partial<Env>;

/** What the tests' own configuration (http://localhost:8787, no tiles) must send. */
const LOCAL = securityHeaders({ publicOrigin: "http://localhost:8787" });

function expectHeaders(res: Response, wanted: Record<string, string> = LOCAL) {
  for (const [name, value] of Object.entries(wanted)) expect(res.headers.get(name), name).toBe(value);
}

const HTML = { "content-type": "text/html; charset=utf-8" };

/** An assets server holding one page for every path. */
const assets = {
  fetch: async () =>
    new Response('<!doctype html><html lang="sv"><body><div id="root"></div></body></html>', { headers: HTML }),
  connect() {
    throw new Error("not used");
  },
} as unknown as Fetcher;

describe("security headers on the Worker's answers", () => {
  it("every kind of answer carries all of them: JSON, a page, a file, 404, 400, 413 and 500", async () => {
    const answers: [string, Response][] = [
      ["config", await call("/api/config")],
      ["health (HEAD)", await call("/api/health", { method: "HEAD" })],
      ["a pre-rendered page", await call("/banor", { env: { ASSETS: assets } })],
      ["the QR image", await call("/qr-v2?token=d2b79b764fb94905a3e7271ce55ee62e")],
      ["unknown path", await call("/api/nothing-here")],
      ["bad JSON", await rawPost("/email", "{not json")],
      ["too large", await rawPost("/email", JSON.stringify({ email: "x".repeat(70_000) }))],
      // A broken database binding: the error handler's generic 500.
      ["server error", await call("/api/races", { env: { DB: undefined as unknown as D1Database } })],
    ];
    expect(answers.map(([what, res]) => `${what} ${res.status}`)).toEqual([
      "config 200",
      "health (HEAD) 200",
      "a pre-rendered page 200",
      "the QR image 200",
      "unknown path 404",
      "bad JSON 400",
      "too large 413",
      "server error 500",
    ]);
    for (const [, res] of answers) expectHeaders(res);
  });

  it("an assets answer passed on as it is (headers that cannot change) gets them too, not a 500", async () => {
    const redirecting = {
      // Response.redirect gives immutable headers, as a fetched response has.
      fetch: async () => Response.redirect("http://localhost/elsewhere", 302),
      connect() {
        throw new Error("not used");
      },
    } as unknown as Fetcher;
    const res = await call("/allmanna-villkor", { env: { ASSETS: redirecting }, redirect: "manual" });
    expect(res.status).toBe(302);
    expectHeaders(res);
  });

  it("keeps a route's own stricter policy: the unsubscribe page", async () => {
    const token = await unsubscribeToken(env.SESSION_SECRET, 1, "familjen@example.se");
    const res = await call(`/unsubscribe/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("permissions-policy")).toBe(LOCAL["permissions-policy"]);
  });

  it("the admin area's documents get its policy (camera, blob: images), whatever page the assets served", async () => {
    const ADMIN = securityHeaders({ publicOrigin: "http://localhost:8787", admin: true });
    // An assets server as the built `_headers` makes it: every page with the public site's headers (its /* rule).
    const served: string[] = [];
    const publicAssets = {
      fetch: async (req: Request) => {
        served.push(new URL(req.url).pathname);
        return new Response('<!doctype html><html lang="sv"><body><div id="root"></div></body></html>', {
          headers: { ...HTML, ...LOCAL },
        });
      },
      connect() {
        throw new Error("not used");
      },
    } as unknown as Fetcher;
    const open = (path: string) => call(path, { env: { ASSETS: publicAssets }, headers: { accept: "text/html" } });
    for (const path of ["/admin", "/admin/race/race-260912-56", "/admin/incheckning", "/admin/login"]) {
      const res = await open(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("permissions-policy"), path).toBe(ADMIN["permissions-policy"]);
      expect(res.headers.get("content-security-policy"), path).toBe(ADMIN["content-security-policy"]);
    }
    // `/admin` is the admin area's page too (not the public shell).
    expect(served[0]).toBe("/admin/_shell");
    for (const path of ["/anmalan/2", "/kvitto/0123456789ABCDEF0123456789ABCDEF", "/banor", "/administration"]) {
      const res = await open(path);
      expect(res.status, path).toBe(200);
      expectHeaders(res);
      expect(res.headers.get("permissions-policy"), path).toContain("camera=()");
    }
  });

  it("leaves a socket upgrade as it is, and the socket works", async () => {
    const hub = await openSocket("/ws/races", { jar: await loginAdmin() });
    hub.send({ action: "ping" });
    hub.ws.close();
  });

  it("over https: wss:// for the sockets, HSTS, the tile host by name; none of it for http", async () => {
    const res = await call("https://byloppet.se/api/config", {
      env: { PUBLIC_ORIGIN: "https://byloppet.se", MAP_TILE_URL: "https://tile.openstreetmap.org/{z}/{x}/{y}.png" },
    });
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("connect-src 'self' wss://byloppet.se https://accounts.google.com/gsi/");
    expect(csp).toContain("img-src 'self' data: https://tile.openstreetmap.org;");
    expect(csp).toContain("upgrade-insecure-requests");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");

    const local = await call("/api/config");
    expect(local.headers.get("strict-transport-security")).toBeNull();
    expect(local.headers.get("content-security-policy")).toContain("connect-src 'self' ws://localhost:* ");
    expect(local.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("with [env.production]'s own variables: https, HSTS, no inline script but the hashed loader", async () => {
    const res = await call("/api/config", { env: PRODUCTION });
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get("content-security-policy")!)![1];
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("unsafe-eval");
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
  });

  it("allows inline scripts only for Vite's development server, never in production", async () => {
    const vite = await call("/api/config", { env: { DEV_SERVER: "vite" } });
    expect(vite.headers.get("content-security-policy")).toContain("script-src 'self' 'unsafe-inline' ");
    const deployed = await call("/api/config", { env: { ...PRODUCTION, DEV_SERVER: "vite" } });
    expect(/script-src ([^;]*)/.exec(deployed.headers.get("content-security-policy")!)![1]).not.toContain(
      "unsafe-inline",
    );
  });
});
