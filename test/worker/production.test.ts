/**
 * The deployed configuration, not only DEV_MODE flipped on the development one: with every variable of
 * [env.production] (as wrangler resolves them, vitest.config.ts), every development route of the app answers 404
 * and changes nothing, and the Swish client goes to Swish over the mTLS binding, never to the simulator.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { swishFetcher } from "../../src/worker/adapters/swish";
import { createApp } from "../../src/worker/app";
import { call, CLIENT_HEADERS, CookieJar, DEV_ADMIN, storedState } from "./helpers";

const PRODUCTION = JSON.parse(env.TEST_PRODUCTION_VARS) as Partial<Env>;

/** Every route the app registers for development: under /dev/, and the development admin login. */
const DEV_ROUTES = [
  ...new Map(
    createApp()
      .routes.filter((r) => r.method !== "ALL" && (r.path.startsWith("/dev") || r.path === "/admin/api/dev-login"))
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  ).values(),
].map((r) => ({
  method: r.method,
  // Realistic values for the parameters, so only the mode can explain a 404.
  path: r.path.replace(":token", "d2b79b764fb94905a3e7271ce55ee62e").replace(":id", "0CB5020A92CF4C7BA7482C7070D8A220"),
}));

describe("the production configuration", () => {
  it("is what the template deploys: not development, Swish's production API, Google's keys", () => {
    expect(PRODUCTION).toMatchObject({
      DEV_MODE: "false",
      SWISH_BASE_URL: "https://cpc.getswish.net/swish-cpcapi/api/",
      GOOGLE_JWKS_URL: "https://www.googleapis.com/oauth2/v3/certs",
      EMAIL_TRANSPORT: "cloudflare",
    });
    expect(DEV_ROUTES.length).toBeGreaterThanOrEqual(15);
  });

  it.each(DEV_ROUTES)("$method $path answers 404 there and changes nothing", async ({ method, path }) => {
    const before = await storedState();
    const jar = new CookieJar();
    const body = method === "GET" ? undefined : JSON.stringify({ email: DEV_ADMIN, status: "PAID", callbacks: "drop" });
    const res = await call(path, {
      method,
      jar,
      headers: { ...CLIENT_HEADERS, "content-type": "application/json" },
      body,
      env: PRODUCTION,
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Hittades inte" });
    expect(jar.size).toBe(0);
    expect(await storedState()).toEqual(before);
  });

  it("sends Swish calls over the mTLS binding only", async () => {
    const seen: string[] = [];
    const fetcher = swishFetcher({
      ...env,
      ...PRODUCTION,
      SWISH_CERT: { fetch: async (req: Request) => (seen.push(req.url), new Response(null, { status: 404 })) },
    } as unknown as Env);
    await fetcher(new Request(`${PRODUCTION.SWISH_BASE_URL}v1/paymentrequests/X`));
    expect(seen).toEqual(["https://cpc.getswish.net/swish-cpcapi/api/v1/paymentrequests/X"]);
  });
});
