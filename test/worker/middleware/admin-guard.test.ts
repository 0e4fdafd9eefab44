/**
 * Every admin call of the admin spec's "calls it makes" table (section 7), with realistic parameters, the right
 * method and the SPA's same-origin header: 401 'Inte inloggad som admin' for an anonymous browser and for a
 * signed-in visitor. For an admin, every call that is built must exist: it is a registered route and answers
 * neither 401/403 nor 404 (a 404 would also be what a missing route answers, so it is a failure, never a pass).
 * The calls not built yet are listed apart: guarded all the same, and 404 until built (then they move up).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/worker/app";
import { concretePath, mountedRoutes, type MountedRoute } from "../app-routes";
import { call, CLIENT_HEADERS, CookieJar, loginAdmin, storedState, visitorJar } from "../helpers";

const RACE = "race-250913-08";
/** A runner of RACE, added once through the admin API before the calls run (see beforeAll). */
const SORT = "{sort}";

type AdminCall = { method: "GET" | "POST"; path: string; body?: unknown };

const ADMIN_CALLS: AdminCall[] = [
  { method: "GET", path: "/admin/api/races" },
  { method: "GET", path: `/admin/api/races/get/${RACE}` },
  { method: "GET", path: `/admin/api/races/start/${RACE}` },
  { method: "GET", path: `/admin/api/races/finish/${RACE}/${SORT}` },
  { method: "GET", path: `/admin/api/races/end/${RACE}` },
  { method: "GET", path: `/admin/api/races/reset/${RACE}` },
  { method: "GET", path: `/admin/api/races/register-bib/${RACE}/${SORT}/12` },
  { method: "GET", path: `/admin/api/races/restore/${RACE}/${SORT}` },
  {
    method: "POST",
    path: "/admin/api/races/create-race/race-250914-30",
    body: { date: "2025-09-14", distance: 3000, openForReg: false },
  },
  {
    method: "POST",
    path: `/admin/api/races/add-runner/${RACE}`,
    body: { firstname: "Sara", lastname: "Berg", age: 9, bib: 15, group: "Dam", company: "IK Test" },
  },
  // Last: it moves the runner to another race.
  { method: "GET", path: `/admin/api/races/change-distance/race-250913-56/${RACE}/${SORT}` },
  { method: "GET", path: "/admin/api/previous-runners-count" },
  { method: "GET", path: "/admin/api/previous-runners" },
  { method: "POST", path: "/admin/api/send-email-previous-runners", body: { subject: "Välkommen", message: "Hej!" } },
  { method: "GET", path: "/admin/api/get_current_runners_count_handler" },
  { method: "GET", path: "/admin/api/get_current_runners_handler" },
  { method: "POST", path: "/admin/api/send-email-current-runners", body: { subject: "Startinfo", message: "Hej!" } },
  { method: "GET", path: "/admin/registrations" },
  // Ours beyond the table.
  { method: "GET", path: "/admin/api/me" },
  { method: "GET", path: "/admin/api/export/registrations.csv" },
  { method: "GET", path: "/admin/api/goodiebags" },
  { method: "POST", path: "/admin/api/refunds", body: { payid: "0".repeat(32), amount: 1, idempotencyKey: "k" } },
  { method: "GET", path: "/admin/api/kampanjkoder" },
  { method: "GET", path: "/admin/api/export2racesplitter" },
  { method: "GET", path: "/admin/api/registration-analytics" },
  // The spec's invitation call, then ours: the list, and sending the invitation the call above made (id 1) again.
  { method: "POST", path: "/admin/api/invite/epassi", body: { name: "Eva Epassi", email: "eva@example.se" } },
  { method: "GET", path: "/admin/api/invite/epassi" },
  { method: "POST", path: "/admin/api/invite/epassi/1/resend" },
  {
    method: "POST",
    path: "/admin/api/quickreg",
    body: {
      firstname: "Olle",
      lastname: "Ek",
      age: "34",
      distance: "5.6",
      group: "Herr",
      phone: "0701234567",
      bib: "601",
    },
  },
];

/** Paths nobody builds: guarded all the same (every call of the spec's table is built and listed above). */
const NOT_BUILT: AdminCall[] = [
  { method: "GET", path: "/admin/api/finns-inte" },
  { method: "POST", path: "/admin/api/finns-inte", body: {} },
  { method: "GET", path: "/admin/registrations/finns-inte" },
];

const EVERY_CALL = [...ADMIN_CALLS, ...NOT_BUILT];

let runnerSort = "";

/** Whether a handler (not only a guard middleware) is registered for the call's method and path. */
function registered(c: AdminCall): boolean {
  const path = c.path.replace(SORT, runnerSort);
  return createApp().routes.some((r) => {
    if (r.method !== c.method || r.path.includes("*")) return false;
    const pattern = r.path
      .split("/")
      .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    return new RegExp(`^${pattern}$`).test(path);
  });
}

function request(c: AdminCall, jar: CookieJar) {
  return call(c.path.replace(SORT, runnerSort), {
    method: c.method,
    jar,
    headers: c.body === undefined ? CLIENT_HEADERS : { ...CLIENT_HEADERS, "content-type": "application/json" },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
}

beforeAll(async () => {
  // The season's races are made from the config on first read.
  expect((await request({ method: "GET", path: "/admin/api/races" }, await loginAdmin())).status).toBe(200);
  const res = await request(
    {
      method: "POST",
      path: `/admin/api/races/add-runner/${RACE}`,
      body: { firstname: "Guard", lastname: "Test", age: 30 },
    },
    await loginAdmin(),
  );
  expect(res.status).toBe(200);
  runnerSort = ((await res.json()) as { sort: string }).sort;
});

describe("admin guard", () => {
  it.each(EVERY_CALL)("$method $path: 401 for an anonymous browser", async (c) => {
    const res = await request(c, new CookieJar());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Inte inloggad som admin" });
  });

  it.each(EVERY_CALL)("$method $path: 401 for a signed-in visitor", async (c) => {
    const res = await request(c, await visitorJar("besokare@example.se"));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Inte inloggad som admin" });
  });

  it.each(ADMIN_CALLS)("$method $path: exists for an admin (a registered route; not 401, 403 or 404)", async (c) => {
    expect(registered(c), "a route handles it").toBe(true);
    const res = await request(c, await loginAdmin());
    const body = await res.text();
    expect([401, 403, 404], `${res.status} ${body.slice(0, 200)}`).not.toContain(res.status);
    expect(res.status, body.slice(0, 200)).toBeLessThan(500);
  });

  it.each(NOT_BUILT)("$method $path: no such call, so 404 JSON for an admin", async (c) => {
    expect(registered(c)).toBe(false);
    const res = await request(c, await loginAdmin());
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Hittades inte" });
  });

  it("leaves sign-in itself open", async () => {
    const authenticate = await call("/admin/api/authenticate", {
      method: "POST",
      headers: { ...CLIENT_HEADERS, "content-type": "application/json" },
      body: JSON.stringify({ credential: "x" }),
    });
    expect(authenticate.status).toBe(401);
    expect(await authenticate.json()).toEqual({ error: "Ej admin!" });
    const devLogin = await call("/admin/api/dev-login", {
      method: "POST",
      headers: { ...CLIENT_HEADERS, "content-type": "application/json" },
      body: JSON.stringify({ email: "arrangor@example.se" }),
    });
    expect(devLogin.status).toBe(200);
  });

  it("answers an admin's unknown admin path with 404 JSON", async () => {
    const res = await call("/admin/api/finns-inte", { jar: await loginAdmin(), headers: CLIENT_HEADERS });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Hittades inte" });
  });
});

/** Sign-in itself is open (it is how an admin gets the cookie). */
const SIGN_IN = new Set(["/admin/api/authenticate", "/admin/api/dev-login"]);
/** Every route the app mounts under /admin/ (test/worker/app-routes.ts): a new admin call can never be missing. */
const MOUNTED_ADMIN = mountedRoutes().filter((r) => r.path.startsWith("/admin/") && !SIGN_IN.has(r.path));
const MOUNTED_WRITES = MOUNTED_ADMIN.filter((r) => ["POST", "PUT", "PATCH", "DELETE"].includes(r.method));

function mountedRequest(route: MountedRoute, jar: CookieJar, body?: string, contentType = "application/json") {
  return call(concretePath(route.path, { raceId: RACE, sort: runnerSort || "runner-x" }), {
    method: route.method,
    jar,
    headers: body === undefined ? CLIENT_HEADERS : { ...CLIENT_HEADERS, "content-type": contentType },
    body,
  });
}

describe("admin guard over the app's own route list", () => {
  it("finds the admin calls (the enumeration sees the app)", () => {
    expect(MOUNTED_ADMIN.length).toBeGreaterThan(40);
    expect(MOUNTED_ADMIN.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        "/admin/api/refunds/:id/check",
        "/admin/api/races/dns/:raceId/:sort/:mark",
        "/admin/api/races/update-runner/:raceId/:sort",
        "/admin/api/races/audit/:raceId",
        "/admin/api/quickreg/:payid/cancel",
        "/admin/api/quickreg/:payid",
      ]),
    );
  });

  it.each(MOUNTED_ADMIN)("$method $path: 401 for an anonymous browser and for a signed-in visitor", async (route) => {
    for (const jar of [new CookieJar(), await visitorJar("besokare@example.se")]) {
      const res = await mountedRequest(route, jar, route.method === "GET" ? undefined : "{}");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Inte inloggad som admin" });
    }
  });
});

/** The admin spec quotes these messages in English; they stay English. */
const SPEC_ENGLISH = new Set([
  "Name is required",
  "E-mail is required",
  "E-mail must be valid",
  "Please fill in both subject and message",
]);

describe("every admin write refuses a malformed body with a Swedish 4xx and stores nothing", () => {
  const MALFORMED: [string, string, string][] = [
    ["not JSON", "namn=Olle", "text/plain"],
    ["broken JSON", '{"firstname": ', "application/json"],
    [
      "wrong types",
      JSON.stringify({ firstname: 12, lastname: [], age: "gammal", subject: {}, email: 5, id: true }),
      "application/json",
    ],
    ["an array", "[1, 2, 3]", "application/json"],
    ["100 kB", JSON.stringify({ text: "x".repeat(100 * 1024) }), "application/json"],
  ];

  it.each(MOUNTED_WRITES)("$method $path", async (route) => {
    const jar = await loginAdmin();
    const before = await storedState();
    for (const [what, body, type] of MALFORMED) {
      const res = await mountedRequest(route, jar, body, type);
      const text = await res.text();
      expect(res.status, `${what}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${what}: ${text.slice(0, 200)}`).toBeLessThan(500);
      const error = (JSON.parse(text) as { error?: unknown }).error;
      expect(typeof error, what).toBe("string");
      // Swedish (å, ä, ö or the words these messages are built from), or one of the spec's English messages.
      if (!SPEC_ENGLISH.has(error as string)) {
        expect(error as string, what).toMatch(/[åäöÅÄÖ]|ogiltig|ange|fel|saknas|inte|ska|obligatorisk|finns/i);
      }
    }
    expect(await storedState()).toEqual(before);
  });
});
