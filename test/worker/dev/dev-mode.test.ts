/**
 * Development affordances exist only when DEV_MODE is "true": each one answers 404 JSON with DEV_MODE "false"
 * (the deployed configuration) and works in development.
 */
import { describe, expect, it } from "vitest";
import { SEASON } from "../../../src/shared/season";
import { call, CLIENT_HEADERS, CookieJar, DEV_ADMIN, storedState } from "../helpers";

const PRODUCTION = { DEV_MODE: "false" } as const;

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { ...CLIENT_HEADERS, "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** Every development affordance that exists, with a request that works in development. */
const AFFORDANCES: { name: string; path: string; init?: RequestInit; works: (res: Response) => Promise<void> }[] = [
  {
    name: "the development JWKS",
    path: "/dev/jwks.json",
    works: async (res) => {
      const body = (await res.json()) as { keys: { kty: string; kid: string; alg: string; d?: string }[] };
      expect(body.keys).toHaveLength(1);
      expect(body.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256" });
      expect(body.keys[0]!.d).toBeUndefined(); // public half only
    },
  },
  {
    name: "the development Google token",
    path: "/dev/google-token",
    init: json({ email: DEV_ADMIN }),
    works: async (res) => {
      expect(((await res.json()) as { credential: string }).credential).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    },
  },
  {
    name: "the stand-in for Google's sign-in script",
    path: "/dev/gsi/client",
    works: async (res) => {
      expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
      const script = await res.text();
      // Google's surface the sign-in page uses, and the development token it asks for.
      expect(script).toContain("window.google.accounts.id = id");
      for (const method of ["initialize:", "renderButton:", "prompt:"]) expect(script).toContain(method);
      expect(script).toContain('fetch("/dev/google-token"');
      expect(() => new Function(script)).not.toThrow();
    },
  },
  {
    name: "the outbox page",
    path: "/dev/outbox",
    works: async (res) => {
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      expect(await res.text()).toContain("<h1>Utkorg</h1>");
    },
  },
  {
    name: "the outbox as JSON",
    path: "/dev/outbox.json",
    works: async (res) => expect(Array.isArray(await res.json())).toBe(true),
  },
  {
    name: "the outbox's test switch",
    path: "/dev/outbox/settings",
    works: async (res) => expect(await res.json()).toEqual({ refuse: false }),
  },
  {
    name: "the outbox's test switch, set",
    path: "/dev/outbox/settings",
    init: json({ refuse: false }),
    works: async (res) => expect(await res.json()).toEqual({ refuse: false }),
  },
  {
    name: "the season switch, back to the build's value",
    path: "/dev/season",
    init: json({ childSafePublishing: null }),
    works: async (res) => expect(await res.json()).toEqual({ childSafePublishing: SEASON.childSafePublishing }),
  },
  {
    name: "the development admin login",
    path: "/admin/api/dev-login",
    init: json({ email: DEV_ADMIN }),
    works: async (res) => {
      expect(await res.json()).toEqual({ ok: true, email: DEV_ADMIN, role: "organiser" });
      expect(res.headers.getSetCookie()[0]).toMatch(/^__Host-admin=/);
    },
  },
];

describe("development mode", () => {
  it.each(AFFORDANCES)("$name ($path) works in development", async ({ path, init, works }) => {
    const res = await call(path, init);
    expect(res.status).toBe(200);
    await works(res);
  });

  it.each(AFFORDANCES)("$name ($path) is 404 JSON outside development", async ({ path, init }) => {
    const before = await storedState();
    const jar = new CookieJar();
    const res = await call(path, { ...init, env: PRODUCTION, jar });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Hittades inte" });
    expect(jar.size).toBe(0);
    expect(await storedState()).toEqual(before);
  });

  it.each([
    ["GET", "/dev/swish/swish-cpcapi/api/v2/paymentrequests/ABC"],
    ["PUT", "/dev/swish/swish-cpcapi/api/v2/paymentrequests/ABC"],
    ["GET", "/dev/swish/pay/some-token"],
    ["POST", "/dev/swish/pay/some-token"],
    ["POST", "/dev/races/race-250913-08/results-mail"],
    ["GET", "/dev/anything-else"],
  ])("every /dev path is 404 outside development: %s %s", async (method, path) => {
    const init: RequestInit = method === "GET" ? { method } : { ...json({ status: "PAID" }), method };
    const res = await call(path, { ...init, env: PRODUCTION });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Hittades inte" });
  });

  it("the season switch turns child-safe publishing on and back; anything but true, false or null is a 400", async () => {
    const built = SEASON.childSafePublishing;
    try {
      expect(await (await call("/dev/season", json({ childSafePublishing: !built }))).json()).toEqual({
        childSafePublishing: !built,
      });
      expect(SEASON.childSafePublishing).toBe(!built);
      const bad = await call("/dev/season", json({ childSafePublishing: "ja" }));
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain("childSafePublishing ska vara true, false eller null");
      expect(SEASON.childSafePublishing).toBe(!built);
    } finally {
      await call("/dev/season", json({ childSafePublishing: null }));
    }
    expect(SEASON.childSafePublishing).toBe(built);
  });

  it("a production admin cannot use the development login even when allowlisted", async () => {
    const res = await call("/admin/api/dev-login", { ...json({ email: DEV_ADMIN }), env: PRODUCTION });
    expect(res.status).toBe(404);
    // …and the Google sign-in does not fetch the development key set in-process outside development.
    const token = (await (await call("/dev/google-token", json({ email: DEV_ADMIN }))).json()) as {
      credential: string;
    };
    const signIn = await call("/admin/api/authenticate", {
      ...json({ credential: token.credential }),
      // Loopback port 9: nothing listens there, so only an in-process answer could make this succeed.
      env: { ...PRODUCTION, GOOGLE_JWKS_URL: "http://127.0.0.1:9/dev/jwks.json" },
    });
    expect(signIn.status).toBe(503);
  });

  it("reports the mode in /api/config", async () => {
    expect(((await (await call("/api/config")).json()) as { devMode: boolean }).devMode).toBe(true);
    const prod = await call("/api/config", { env: PRODUCTION });
    expect(((await prod.json()) as { devMode: boolean }).devMode).toBe(false);
  });

  it("POST /email returns the real login code only in development; the e-mail carries it either way", async () => {
    const dev = await call("/email", json({ email: "kod-dev@example.se" }));
    expect(dev.status).toBe(200);
    const devBody = (await dev.json()) as { id: string; code: string };
    expect(devBody.code).toMatch(/^\d{6}$/);

    const prod = await call("/email", { ...json({ email: "kod-prod@example.se" }), env: PRODUCTION });
    expect(prod.status).toBe(200);
    const prodBody = (await prod.json()) as { id: string; code: string };
    expect(prodBody.id).toBeTruthy();
    expect(prodBody.code).toBe("");
    const mailed = (await (await call("/dev/outbox.json?to=kod-prod@example.se")).json()) as { text: string }[];
    expect(mailed).toHaveLength(1);
    expect(mailed[0]!.text).toMatch(/\d{6}/);
  });

  it("POST /dev/login-codes/:id/expire lets a code run out in development, and is 404 outside it", async () => {
    const email = "kod-utgangen@example.se";
    const env = { NOW: "2025-08-25T10:00:00+02:00", NOW_SET_AT: String(Date.now()) };
    const { id, code } = (await (await call("/email", { ...json({ email }), env })).json()) as {
      id: string;
      code: string;
    };

    const refused = await call(`/dev/login-codes/${id}/expire`, { ...json({}), env: { ...env, ...PRODUCTION } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "Hittades inte" });

    expect((await call("/dev/login-codes/finns-inte/expire", { ...json({}), env })).status).toBe(404);
    expect((await call(`/dev/login-codes/${id}/expire`, { ...json({}), env })).status).toBe(200);
    const late = await call("/code", { ...json({ email, codeId: id, code }), env });
    expect(late.status).toBe(410);
    expect(((await late.json()) as { error: string }).error).toBe("Koden har gått ut. Begär en ny kod.");
  });
});
