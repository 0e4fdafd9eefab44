import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureSeasonRaces } from "../../../src/worker/race-day/races-db";
import { SEASON } from "../../../src/shared/season";
import { SESSION_RECHECK_MS } from "../../../src/shared/object-calls";
import {
  forgetRaceDaySession,
  recentlyVerified,
  rememberVerified,
} from "../../../src/worker/session/race-day-sessions";
import { addAdmin, removeAdmin } from "../../../src/worker/session/admins-db";
import { database } from "../../../src/worker/db/client";
import type { SessionInfo } from "../../../src/worker/env";
import { sessionCookieName } from "../../../src/worker/session/sessions";
import { BASE, CookieJar, get, loginAdmin } from "../helpers";

/** A race-day call (the review list of this season's 5.6 km race) and an admin call that is not one. */
const RACE_DAY_CALL = "/admin/api/races/review/race-250913-56";
const OTHER_ADMIN_CALL = "/admin/api/me";

async function sessionIdOf(email: string): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT id FROM sessions WHERE email = ? AND kind = 'admin' AND revoked_at IS NULL ORDER BY created_at DESC",
  )
    .bind(email)
    .first<{ id: string }>();
  if (!row) throw new Error(`no live admin session for ${email}`);
  return row.id;
}

async function signedIn(email: string): Promise<{ jar: CookieJar; id: string }> {
  await addAdmin(database(env.DB), email, Date.now());
  const jar = await loginAdmin(new CookieJar(), email);
  return { jar, id: await sessionIdOf(email) };
}

describe("race-day calls reuse this isolate's session check for at most 30 s", () => {
  beforeAll(() => ensureSeasonRaces(database(env.DB), SEASON));

  it("a session revoked in D1 keeps its race-day calls within the window, never its other admin calls", async () => {
    const { jar, id } = await signedIn(`rev-${crypto.randomUUID()}@example.se`);
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(200); // verified in D1, remembered
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").bind(Date.now(), id).run();

    expect((await get(OTHER_ADMIN_CALL, { jar })).status).toBe(401); // every other admin call reads D1
    // That failed check also forgets the session here: the race-day call reads D1 again and is refused.
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(401);
  });

  it("a revoked session's race-day call inside the window is served from the remembered check", async () => {
    const { jar, id } = await signedIn(`win-${crypto.randomUUID()}@example.se`);
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").bind(Date.now(), id).run();
    // No D1 read: the tap path's bound is the socket's (SESSION_RECHECK_MS), documented in race-day-sessions.ts.
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(200);
    forgetRaceDaySession(id);
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(401);
  });

  it("logout forgets the session at once: the same cookie's next race-day call is refused", async () => {
    const { jar } = await signedIn(`out-${crypto.randomUUID()}@example.se`);
    const name = sessionCookieName("admin", BASE);
    const cookie = new CookieJar();
    cookie.set(name, jar.get(name) ?? ""); // a copy of the cookie, kept after logout
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(200);
    expect((await get("/api/logout", { jar })).status).toBe(200);
    expect((await get(RACE_DAY_CALL, { jar: cookie })).status).toBe(401);
  });

  it("an address removed from the allowlist is refused once the remembered check is dropped", async () => {
    const email = `gone-${crypto.randomUUID()}@example.se`;
    const { jar, id } = await signedIn(email);
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(200);
    await removeAdmin(database(env.DB), email);
    expect((await get(OTHER_ADMIN_CALL, { jar })).status).toBe(401);
    expect((await get(RACE_DAY_CALL, { jar })).status).toBe(401);
    expect(recentlyVerified(id, Date.now())).toBeNull();
  });
});

describe("the remembered checks", () => {
  const session = (id: string, expiresAt: number): SessionInfo => ({
    id,
    kind: "admin",
    email: "a@example.se",
    expiresAt,
  });

  it("last SESSION_RECHECK_MS, end at the session's expiry, and count a clock set back as stale", () => {
    const now = 1_000_000;
    rememberVerified(session("s-window", now + 3_600_000), now);
    expect(recentlyVerified("s-window", now + SESSION_RECHECK_MS - 1)?.id).toBe("s-window");
    expect(recentlyVerified("s-window", now + SESSION_RECHECK_MS)).toBeNull();

    rememberVerified(session("s-expiry", now + 5_000), now);
    expect(recentlyVerified("s-expiry", now + 4_999)?.id).toBe("s-expiry");
    expect(recentlyVerified("s-expiry", now + 5_000)).toBeNull();

    rememberVerified(session("s-back", now + 3_600_000), now);
    expect(recentlyVerified("s-back", now - 1)).toBeNull();
  });

  it("keep at most 256 sessions, the oldest out first", () => {
    const now = 2_000_000;
    for (let i = 0; i < 300; i += 1) rememberVerified(session(`s-many-${i}`, now + 3_600_000), now);
    expect(recentlyVerified("s-many-0", now)).toBeNull();
    expect(recentlyVerified("s-many-43", now)).toBeNull();
    expect(recentlyVerified("s-many-44", now)?.id).toBe("s-many-44");
    expect(recentlyVerified("s-many-299", now)?.id).toBe("s-many-299");
  });
});
