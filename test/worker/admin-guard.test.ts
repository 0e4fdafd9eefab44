/**
 * Every admin call of the admin spec's "calls it makes" table (section 7), with realistic parameters, the right
 * method and the SPA's same-origin header: 401 'Inte inloggad som admin' for an anonymous browser and for a
 * signed-in visitor, never 401 for an admin (404 is fine for a call not built yet).
 */
import { describe, expect, it } from "vitest";
import { call, CLIENT_HEADERS, CookieJar, loginAdmin, visitorJar } from "./helpers";

const RACE = "race-250913-08";
const SORT = "runner-0001";

const ADMIN_CALLS: { method: "GET" | "POST"; path: string; body?: unknown }[] = [
  { method: "GET", path: "/admin/api/races" },
  { method: "GET", path: `/admin/api/races/get/${RACE}` },
  { method: "GET", path: `/admin/api/races/start/${RACE}` },
  { method: "GET", path: `/admin/api/races/finish/${RACE}/${SORT}` },
  { method: "GET", path: `/admin/api/races/end/${RACE}` },
  { method: "GET", path: `/admin/api/races/reset/${RACE}` },
  { method: "GET", path: `/admin/api/races/register-bib/${RACE}/${SORT}/12` },
  { method: "GET", path: `/admin/api/races/restore/${RACE}/${SORT}` },
  { method: "GET", path: `/admin/api/races/change-distance/race-250913-16/${RACE}/${SORT}` },
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
  { method: "GET", path: "/admin/registrations" },
  { method: "GET", path: "/admin/api/export2racesplitter" },
  { method: "GET", path: "/admin/api/registration-analytics" },
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
  { method: "POST", path: "/admin/api/invite/epassi", body: { name: "Eva Epassi", email: "eva@example.se" } },
  { method: "GET", path: "/admin/api/previous-runners-count" },
  { method: "GET", path: "/admin/api/previous-runners" },
  { method: "POST", path: "/admin/api/send-email-previous-runners", body: { subject: "Välkommen", message: "Hej!" } },
  { method: "GET", path: "/admin/api/get_current_runners_count_handler" },
  { method: "GET", path: "/admin/api/get_current_runners_handler" },
  { method: "POST", path: "/admin/api/send-email-current-runners", body: { subject: "Startinfo", message: "Hej!" } },
  // Ours beyond the table, and paths nobody has built: guarded all the same.
  { method: "GET", path: "/admin/api/me" },
  { method: "GET", path: "/admin/api/finns-inte" },
  { method: "POST", path: "/admin/api/finns-inte", body: {} },
  { method: "GET", path: "/admin/registrations/finns-inte" },
];

function request(c: (typeof ADMIN_CALLS)[number], jar: CookieJar) {
  return call(c.path, {
    method: c.method,
    jar,
    headers: c.body === undefined ? CLIENT_HEADERS : { ...CLIENT_HEADERS, "content-type": "application/json" },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
}

describe("admin guard", () => {
  it.each(ADMIN_CALLS)("$method $path: 401 for an anonymous browser", async (c) => {
    const res = await request(c, new CookieJar());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Inte inloggad som admin" });
  });

  it.each(ADMIN_CALLS)("$method $path: 401 for a signed-in visitor", async (c) => {
    const res = await request(c, await visitorJar("besokare@example.se"));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Inte inloggad som admin" });
  });

  it.each(ADMIN_CALLS)("$method $path: not 401 for an admin", async (c) => {
    const res = await request(c, await loginAdmin());
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(403);
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
