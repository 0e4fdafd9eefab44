/**
 * Every admin route states its role (issue 43), checked from the app's own route list (test/worker/app-routes.ts):
 * a route under /admin/ or an admin socket that src/worker/middleware/route-roles.ts does not list fails here, and so does an
 * entry that names no mounted route. Then each route is called through the Worker by a volunteer and an organiser:
 * a volunteer gets 403 'Det här får bara arrangörer göra.' from exactly the organiser's routes and is let through
 * every other (the route's own answer: 400, 404, 426 …), an organiser is let through all. A route the table misses
 * answers 403 at run time, to organisers too (the real app with one more route mounted).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ORGANISERS_ONLY } from "../../../src/shared/admin-roles";
import { ROUTE_ROLES, SIGN_IN_ROUTES } from "../../../src/worker/middleware/route-roles";
import { createApp } from "../../../src/worker/app";
import { database } from "../../../src/worker/db/client";
import { NO_ROLE_STATED } from "../../../src/worker/middleware/admin-role";
import { addAdmin } from "../../../src/worker/session/admins-db";
import { concretePath, mountedRoutes, type MountedRoute } from "../app-routes";
import { BASE, call, CLIENT_HEADERS, CookieJar, loginAdmin } from "../helpers";

/** The public sockets: a spectator's live race and a family's payment. Any other socket is an admin's. */
const PUBLIC_SOCKETS = new Set(["GET /ws/spectate/:raceId", "GET /ws/pay/:payid"]);

const key = (r: MountedRoute) => `${r.method} ${r.path}`;
const ROUTES = mountedRoutes();
const ADMIN_ROUTES = ROUTES.filter(
  (r) => (r.path.startsWith("/admin/") || r.path.startsWith("/ws/")) && !SIGN_IN_ROUTES.has(key(r)),
).filter((r) => !PUBLIC_SOCKETS.has(key(r)));

const VOLUNTEER = "funktionar-roller@example.se";
let volunteer: CookieJar;
let organiser: CookieJar;

beforeAll(async () => {
  await addAdmin(database(env.DB), VOLUNTEER, Date.now(), "volunteer");
  volunteer = await loginAdmin(new CookieJar(), VOLUNTEER);
  organiser = await loginAdmin();
});

/** One call of the route with placeholder params ('x': no such race or payment) and an empty JSON body. */
function request(route: MountedRoute, jar: CookieJar, method = route.method) {
  const write = route.method !== "GET";
  return call(concretePath(route.path), {
    method,
    jar,
    headers: write ? { ...CLIENT_HEADERS, "content-type": "application/json" } : CLIENT_HEADERS,
    body: write ? "{}" : undefined,
  });
}

async function errorOf(res: Response): Promise<string | undefined> {
  if (!res.headers.get("content-type")?.includes("json")) return undefined;
  return ((await res.json()) as { error?: string }).error;
}

describe("the role table and the app's routes", () => {
  it("finds the admin routes (the enumeration sees the app)", () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThan(70);
    expect(ADMIN_ROUTES.map(key)).toEqual(
      expect.arrayContaining(["GET /ws/race/:raceId", "GET /admin/registrations", "POST /admin/api/admins/remove"]),
    );
  });

  it("every admin route states its role", () => {
    const missing = ADMIN_ROUTES.map(key).filter((k) => !(k in ROUTE_ROLES));
    expect(missing, "admin routes without a role in src/worker/middleware/route-roles.ts").toEqual([]);
  });

  it("every entry of the table names a mounted route", () => {
    const mounted = new Set(ROUTES.map(key));
    const stale = Object.keys(ROUTE_ROLES).filter((k) => !mounted.has(k));
    expect(stale, "entries in src/worker/middleware/route-roles.ts that no route matches").toEqual([]);
  });

  it("the issue's organiser-only areas are organisers' only", () => {
    for (const k of [
      "GET /admin/registrations",
      "POST /admin/api/refunds",
      "GET /admin/api/export/registrations.csv",
      "GET /admin/api/personal-data/export",
      "POST /admin/api/personal-data/erase",
      "POST /admin/api/send-email-current-runners",
      "POST /admin/api/kampanjkoder",
      "POST /admin/api/invite/epassi",
      "POST /admin/api/results/import",
      "GET /admin/api/registration-analytics",
      "GET /admin/api/races/reset/:raceId",
      "POST /admin/api/races/official/:raceId",
      "POST /admin/api/admins",
    ]) {
      expect(ROUTE_ROLES[k], k).toBe("organiser");
    }
    for (const k of [
      "GET /admin/api/races/finish/:raceId/:sort",
      "POST /admin/api/races/rapid/:raceId",
      "POST /admin/api/checkin/pickup",
      "POST /admin/api/quickreg",
      "GET /admin/api/races",
      "GET /ws/race/:raceId",
    ]) {
      expect(ROUTE_ROLES[k], k).toBe("volunteer");
    }
  });
});

describe("each admin route as a volunteer and as an organiser", () => {
  it.each(ADMIN_ROUTES)("$method $path", async (route) => {
    const needed = ROUTE_ROLES[key(route)];
    const asVolunteer = await request(route, volunteer);
    const volunteerError = await errorOf(asVolunteer);
    if (needed === "organiser") {
      expect(asVolunteer.status).toBe(403);
      expect(volunteerError).toBe(ORGANISERS_ONLY);
    } else {
      expect(asVolunteer.status, volunteerError).not.toBe(401);
      expect([ORGANISERS_ONLY, NO_ROLE_STATED]).not.toContain(volunteerError);
    }
    const asOrganiser = await request(route, organiser);
    const organiserError = await errorOf(asOrganiser);
    expect(asOrganiser.status, organiserError).not.toBe(401);
    expect([ORGANISERS_ONLY, NO_ROLE_STATED]).not.toContain(organiserError);
  });

  it("a HEAD is judged as its GET", async () => {
    const res = await call("/admin/api/export/registrations.csv", {
      method: "HEAD",
      jar: volunteer,
      headers: CLIENT_HEADERS,
    });
    expect(res.status).toBe(403);
  });

  it("a path no route answers is a 404 for a volunteer too (nothing there to refuse)", async () => {
    const res = await call("/admin/api/finns-inte", { jar: volunteer, headers: CLIENT_HEADERS });
    expect(res.status).toBe(404);
  });
});

describe("deny by default", () => {
  it("an admin route the table does not list answers 403 to an organiser and a volunteer", async () => {
    const app = createApp();
    let reached = false;
    app.get("/admin/api/ny-funktion", (c) => {
      reached = true;
      return c.json({ ok: true });
    });
    for (const jar of [organiser, volunteer]) {
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request(`${BASE}/admin/api/ny-funktion`, { headers: { ...CLIENT_HEADERS, cookie: jar.header() } }),
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: NO_ROLE_STATED });
    }
    expect(reached).toBe(false);
  });
});
