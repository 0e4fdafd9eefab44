/**
 * The admins screen's calls (/admin/api/admins, issue 43) through the Worker: list, add, change a role, remove, each
 * with its audit line written with it; the refusals, each writing nothing (a malformed address, an unknown role, an
 * ADMIN_EMAILS address, the organiser's own address, a volunteer calling); and what a change does to someone signed
 * in at the time: their next request follows the new role (a race-day call that only an organiser may make too, with
 * this isolate's race-day check warm), a demoted admin keeps the race sockets, a removed one loses them at once.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ORGANISERS_ONLY, type AdminList } from "../../../src/shared/admin-roles";
import { SESSION_ENDED_CODE } from "../../../src/shared/object-calls";
import { database } from "../../../src/worker/db/client";
import { addAdmin } from "../../../src/worker/session/admins-db";
import { addRunner, newRace, subscribe, useRaceYear } from "../../durable/race/race-helpers";
import { CookieJar, DEV_ADMIN, get, loginAdmin, post, storedState, waitFor } from "../helpers";

useRaceYear(2073);

const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.se`;

async function auditLines(subject: string) {
  const rows = await env.DB.prepare(
    "SELECT actor, action, subject, detail FROM audit_log WHERE subject = ? AND action LIKE 'admin.%' ORDER BY id",
  )
    .bind(subject)
    .all<{ actor: string; action: string; subject: string; detail: string }>();
  return rows.results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as unknown }));
}

async function listed(jar: CookieJar) {
  const res = await get("/admin/api/admins", { jar });
  expect(res.status).toBe(200);
  return ((await res.json()) as AdminList).admins;
}

let organiser: CookieJar;

beforeAll(async () => {
  organiser = await loginAdmin();
});

describe("the admins screen's calls", () => {
  it("lists ADMIN_EMAILS as fixed organisers, then adds, changes and removes a person, each audited", async () => {
    const person = unique("ny");
    expect(await listed(organiser)).toContainEqual({
      email: DEV_ADMIN,
      role: "organiser",
      fixed: true,
      addedAt: null,
    });

    const added = await post(
      "/admin/api/admins",
      { email: ` ${person.toUpperCase()} `, role: "volunteer" },
      {
        jar: organiser,
      },
    );
    expect(added.status, await added.clone().text()).toBe(200);
    expect(((await added.json()) as AdminList).admins).toContainEqual(
      expect.objectContaining({ email: person, role: "volunteer", fixed: false }),
    );

    const promoted = await post(
      "/admin/api/admins/change-role",
      { email: person, role: "organiser" },
      {
        jar: organiser,
      },
    );
    expect(promoted.status).toBe(200);
    expect(await listed(organiser)).toContainEqual(expect.objectContaining({ email: person, role: "organiser" }));

    const removed = await post("/admin/api/admins/remove", { email: person }, { jar: organiser });
    expect(removed.status).toBe(200);
    expect((await listed(organiser)).map((a) => a.email)).not.toContain(person);

    expect(await auditLines(person)).toEqual([
      { actor: DEV_ADMIN, action: "admin.add", subject: person, detail: { role: "volunteer" } },
      {
        actor: DEV_ADMIN,
        action: "admin.change-role",
        subject: person,
        detail: { role: "organiser", from: "volunteer" },
      },
      { actor: DEV_ADMIN, action: "admin.remove", subject: person, detail: { from: "organiser" } },
    ]);
  });

  it("refuses bad input, ADMIN_EMAILS, one's own address, duplicates and strangers, writing nothing", async () => {
    const person = unique("finns");
    expect((await post("/admin/api/admins", { email: person, role: "volunteer" }, { jar: organiser })).status).toBe(
      200,
    );
    const before = await storedState();
    const refusals: [string, unknown, number, RegExp][] = [
      ["/admin/api/admins", { email: "inte-en-adress", role: "volunteer" }, 400, /giltig e-postadress/],
      ["/admin/api/admins", { email: unique("x"), role: "chef" }, 400, /Funktionär eller Arrangör/],
      ["/admin/api/admins", { email: unique("x") }, 400, /Funktionär eller Arrangör/],
      ["/admin/api/admins", { email: DEV_ADMIN, role: "volunteer" }, 409, /ADMIN_EMAILS/],
      ["/admin/api/admins", { email: person, role: "organiser" }, 409, /redan admin/],
      ["/admin/api/admins/change-role", { email: DEV_ADMIN, role: "volunteer" }, 409, /ADMIN_EMAILS/],
      ["/admin/api/admins/change-role", { email: person, role: "admin" }, 400, /Funktionär eller Arrangör/],
      ["/admin/api/admins/change-role", { email: person, role: "volunteer" }, 409, /redan den rollen/],
      ["/admin/api/admins/change-role", { email: unique("okand"), role: "volunteer" }, 404, /inte admin/],
      ["/admin/api/admins/remove", { email: DEV_ADMIN }, 409, /ADMIN_EMAILS/],
      ["/admin/api/admins/remove", { email: unique("okand") }, 404, /inte admin/],
      ["/admin/api/admins/remove", { email: "" }, 400, /giltig e-postadress/],
    ];
    for (const [path, body, status, message] of refusals) {
      const res = await post(path, body, { jar: organiser });
      const text = await res.text();
      expect(res.status, `${path} ${JSON.stringify(body)}: ${text}`).toBe(status);
      expect((JSON.parse(text) as { error: string }).error).toMatch(message);
    }
    expect(await storedState()).toEqual(before);
  });

  it("an organiser added on the screen cannot demote or remove themselves", async () => {
    const self = unique("sjalv");
    await addAdmin(database(env.DB), self, Date.now(), "organiser");
    const jar = await loginAdmin(new CookieJar(), self);
    const before = await storedState();
    for (const [path, body] of [
      ["/admin/api/admins/change-role", { email: self, role: "volunteer" }],
      ["/admin/api/admins/remove", { email: self }],
    ] as const) {
      const res = await post(path, body, { jar });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toMatch(/din egen behörighet/);
    }
    expect(await storedState()).toEqual(before);
  });

  it("a volunteer can neither list nor change admins", async () => {
    const volunteerEmail = unique("funk");
    await addAdmin(database(env.DB), volunteerEmail, Date.now(), "volunteer");
    const jar = await loginAdmin(new CookieJar(), volunteerEmail);
    const before = await storedState();
    const calls = [
      get("/admin/api/admins", { jar }),
      post("/admin/api/admins", { email: unique("x"), role: "organiser" }, { jar }),
      post("/admin/api/admins/change-role", { email: volunteerEmail, role: "organiser" }, { jar }),
      post("/admin/api/admins/remove", { email: volunteerEmail }, { jar }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: ORGANISERS_ONLY });
    }
    expect(await storedState()).toEqual(before);
  });

  it("two organisers demoting each other at once: one change is made, the other refused, one organiser is left", async () => {
    const [a, b] = [unique("org-a"), unique("org-b")];
    await addAdmin(database(env.DB), a, Date.now(), "organiser");
    await addAdmin(database(env.DB), b, Date.now(), "organiser");
    const [jarA, jarB] = await Promise.all([loginAdmin(new CookieJar(), a), loginAdmin(new CookieJar(), b)]);
    const answers = await Promise.all([
      post("/admin/api/admins/change-role", { email: b, role: "volunteer" }, { jar: jarA }),
      post("/admin/api/admins/change-role", { email: a, role: "volunteer" }, { jar: jarB }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    const roles = await env.DB.prepare("SELECT email, role FROM admins WHERE email IN (?, ?) ORDER BY email")
      .bind(a, b)
      .all<{ email: string; role: string }>();
    expect(roles.results.map((r) => r.role).sort()).toEqual(["organiser", "volunteer"]);
    const lines = [...(await auditLines(a)), ...(await auditLines(b))];
    expect(lines.filter((l) => l.action === "admin.change-role")).toHaveLength(1);
  });
});

describe("a change while the person is signed in", () => {
  it("a role changed counts from their next request; a demoted admin's race socket stays, a removed one's closes", async () => {
    const person = unique("pass");
    expect((await post("/admin/api/admins", { email: person, role: "organiser" }, { jar: organiser })).status).toBe(
      200,
    );
    const jar = await loginAdmin(new CookieJar(), person);
    const part = await newRace(organiser);
    const runner = await addRunner(organiser, part, { bib: 310 });
    const phone = await subscribe(jar, part);
    // A race-day call: this isolate now holds a check of the session (race-day-sessions.ts).
    expect((await get(`/admin/api/races/get/${part}`, { jar })).status).toBe(200);
    expect((await get("/admin/api/export/registrations.csv", { jar })).status).toBe(200);

    expect(
      (await post("/admin/api/admins/change-role", { email: person, role: "volunteer" }, { jar: organiser })).status,
    ).toBe(200);
    // The next call, without signing in again: the back office and the organiser's race-day calls are refused at
    // once (never from the warm race-day check), the race screen's calls still answered.
    expect((await get("/admin/api/export/registrations.csv", { jar })).status).toBe(403);
    const reset = await get(`/admin/api/races/reset/${part}`, { jar });
    expect(reset.status).toBe(403);
    expect(await reset.json()).toEqual({ error: ORGANISERS_ONLY });
    expect((await get(`/admin/api/races/register-bib/${part}/${runner.sort}/311`, { jar })).status).toBe(200);
    expect(await (await get("/api/config", { jar })).json()).toMatchObject({ isAdmin: true, adminRole: "volunteer" });
    expect(await (await get("/admin/api/me", { jar })).json()).toEqual({ email: person, role: "volunteer" });
    // Their race socket is a volunteer's too: still open, and it got the bib.
    await waitFor(() => JSON.stringify(phone.socket.messages).includes('"bib":311'), 5000, "the bib on the socket");
    expect(phone.socket.closeCode()).toBeNull();

    // Promoted again: the next call is an organiser's.
    expect(
      (await post("/admin/api/admins/change-role", { email: person, role: "organiser" }, { jar: organiser })).status,
    ).toBe(200);
    expect((await get("/admin/api/export/registrations.csv", { jar })).status).toBe(200);

    // Removed: every next call is a 401 (the race-day one too: this isolate forgot its check), the socket closes.
    expect((await post("/admin/api/admins/remove", { email: person }, { jar: organiser })).status).toBe(200);
    await waitFor(() => phone.socket.closeCode() === SESSION_ENDED_CODE, 5000, "the removed admin's socket closed");
    expect((await get(`/admin/api/races/get/${part}`, { jar })).status).toBe(401);
    expect((await get("/admin/api/me", { jar })).status).toBe(401);
    // Added again later, the old cookie stays dead: the removal revoked the session.
    expect((await post("/admin/api/admins", { email: person, role: "organiser" }, { jar: organiser })).status).toBe(
      200,
    );
    expect((await get("/admin/api/me", { jar })).status).toBe(401);
  });
});
