/**
 * Race reads. Public: the race list, a race's public view (`GET /api/races/get/{part}`) and the spectators' live
 * socket; admin: the same under /admin/api (the admin guard in front of /admin/api/* decides who gets there),
 * where the runners carry their age and participant id too, and the spectator figures. Race-day writes live in
 * routes.ts.
 */
import { Hono } from "hono";
import { z } from "zod";
import { isRaceId } from "../../shared/race-id";
import { database } from "../db/client";
import { listRaceRecords } from "./races-db";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { isSiteOrigin } from "../middleware/same-origin";
import { validate } from "../middleware/validate";
import { etagMatches, isKnownRace, publicRaceAnswer, publicViewHeaders } from "./public-races";
import { raceSnapshot } from "./race-runners";
import { companionsOfRace } from "./companions-db";
import { publicCompanionList, publicRaceList } from "../../shared/public-view";

export const raceRoutes = new Hono<AppEnv>();
export const publicRaceRoutes = new Hono<AppEnv>();
export const spectateRoutes = new Hono<AppEnv>();

/** The race list; a race's results status only as the public may see it (child-safe publishing, public-view.ts). */
publicRaceRoutes.get("/", async (c) => c.json(publicRaceList(await listRaceRecords(database(c.env.DB)))));

/** Malformed or unknown ids are answered 404 (the shared race-id rules, then the race index); this bounds input. */
const partParam = z.object({ part: z.string().min(1).max(64) });
const raceIdParam = z.object({ raceId: z.string().min(1).max(64) });

const NOT_FOUND = "Loppet finns inte";

/**
 * Spectators follow a running race here and on its socket: the public view (shared/public-view.ts) from the race's
 * spectator fan-out, through the edge cache and this isolate's copy of the settled answer (public-races.ts), so a
 * crowd never reaches the race object. `If-None-Match` with the current ETag is a 304. An unknown race is a 404
 * from the race index, which the edge may keep a few seconds. The race object's own reads are the admins' (below).
 */
publicRaceRoutes.get("/get/:part", validate("param", partParam), async (c) => {
  const part = c.req.valid("param").part;
  let answer;
  try {
    answer = await publicRaceAnswer(c.env, database(c.env.DB), part, c.var.clock.now());
  } catch (err) {
    // Neither the fan-out nor a copy to fall back on: say so, and when to ask again.
    console.error("public race view unavailable", part, err);
    return c.json({ error: "Startlistan kan inte hämtas just nu. Försök igen om en stund." }, 503, {
      "retry-after": "5",
      "cache-control": "no-store",
    });
  }
  if (!answer) {
    return c.json({ error: NOT_FOUND }, 404, {
      "cache-control": "no-cache",
      "cloudflare-cdn-cache-control": "public, max-age=5",
    });
  }
  const headers = publicViewHeaders(part, answer.etag);
  if (etagMatches(c.req.header("if-none-match"), answer.etag)) return c.body(null, 304, headers);
  return c.body(answer.body, 200, { ...headers, "content-type": "application/json; charset=UTF-8" });
});

/**
 * The adults who run with a child on this race without competing (shared/companion.ts), for the start list's 'Med
 * barn' rows: names and clubs only (public-view.ts publicCompanionList), read from D1 on each request (they are in
 * no race object). The edge may keep the answer a few seconds.
 */
publicRaceRoutes.get("/companions/:part", validate("param", partParam), async (c) => {
  const part = c.req.valid("param").part;
  const companions = isRaceId(part) ? await companionsOfRace(database(c.env.DB), part) : null;
  if (!companions) return c.json({ error: NOT_FOUND }, 404, { "cache-control": "no-cache" });
  return c.json(publicCompanionList(part, companions), 200, {
    "cache-control": "no-cache",
    "cloudflare-cdn-cache-control": "public, max-age=5",
  });
});

/**
 * The spectators' live socket, `{wsUrl}/spectate/{raceId}[?since=N]`: public data, so no sign-in. A browser sends
 * Origin on every socket upgrade: a page of another site is refused (403), so the site's live feed is not
 * embedded elsewhere at the site's cost; a client that sends no Origin (not a browser) may follow, as it may read
 * the public JSON. The race must be in the index (404 otherwise, before any Durable Object is asked); the
 * upgrade goes to the race's fan-out object with nothing of the visitor's (no cookie).
 */
spectateRoutes.get("/:raceId", validate("param", raceIdParam), async (c) => {
  const req = c.req.raw;
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "Förväntade en WebSocket-anslutning" }, 426);
  }
  const origin = req.headers.get("origin");
  if (origin && !isSiteOrigin(origin, req, c.env.PUBLIC_ORIGIN)) {
    return c.json({ error: "Anslutningen kom inte från sajten." }, 403);
  }
  const part = c.req.valid("param").raceId;
  const headers = new Headers(req.headers);
  headers.delete("cookie");
  try {
    if (!(await isKnownRace(database(c.env.DB), part))) return c.json({ error: NOT_FOUND }, 404);
    // Returned as is: the 101 response's headers are immutable, so no middleware may touch it.
    return await c.env.SPECTATORS.getByName(part).fetch(new Request(req.url, { headers }));
  } catch (err) {
    // The race index or the fan-out cannot be reached (overloaded, restarting): the page polls the cached view meanwhile and tries
    // the socket again later; a spectator is never answered 500.
    console.error("spectator socket not opened", part, err);
    return c.json({ error: "Liveuppdateringen kan inte öppnas just nu. Försök igen om en stund." }, 503, {
      "retry-after": "5",
      "cache-control": "no-store",
    });
  }
});

/** How many follow a race live and how often spectators reached the race object (the organisers' view, the bench). */
raceRoutes.get("/spectators/:raceId", validate("param", raceIdParam), async (c) => {
  const part = c.req.valid("param").raceId;
  if (!(await isKnownRace(database(c.env.DB), part))) throw notFound(NOT_FOUND);
  return c.json(await c.env.SPECTATORS.getByName(part).stats());
});

raceRoutes.get("/", async (c) => c.json(await listRaceRecords(database(c.env.DB))));

raceRoutes.get("/get/:raceId", validate("param", raceIdParam), async (c) =>
  c.json(await raceSnapshot(c.env, database(c.env.DB), c.req.valid("param").raceId)),
);
