/**
 * The same-origin guard (DESIGN.md §4) holds for every state-changing call, whatever its method: HEAD runs a GET
 * handler, so it passes exactly the guard GET does. The state-changing GETs are read from the app's own route list
 * (test/worker/app-routes.ts): any GET not named read-only here is treated as state-changing, so a new one can
 * never slip past unguarded.
 */
import { describe, expect, it } from "vitest";
import { DNS_NOT_PICKED_UP_WORD, RESET_WORD } from "../../../src/shared/race-protocol";
import { concretePath, mountedRoutes } from "../app-routes";
import { call, get, loginAdmin } from "../helpers";
import { addRunner, newRace, snapshot, useRaceYear } from "../../durable/race/race-helpers";

useRaceYear(2073);

/** GETs that change nothing (reads, socket upgrades whose origin is checked on their own, dev-only pages). */
const READ_ONLY_GETS = new Set([
  "/",
  "/:file{img_[0-9]{4}\\.txt}",
  // The admins screen's list (its changes are POSTs).
  "/admin/api/admins",
  "/admin/api/diplomas/:race",
  "/admin/api/export/friidrott.csv",
  "/admin/api/export/registrations.csv",
  "/admin/api/export2racesplitter",
  "/admin/api/get_current_runners_count_handler",
  "/admin/api/get_current_runners_handler",
  "/admin/api/goodiebags",
  "/admin/api/invite/epassi",
  "/admin/api/kampanjkoder",
  "/admin/api/mailings/:id",
  "/admin/api/mailings/waiting",
  "/admin/api/me",
  "/admin/api/personal-data",
  "/admin/api/personal-data/box-office",
  "/admin/api/personal-data/export",
  "/admin/api/previous-runners",
  "/admin/api/previous-runners-count",
  "/admin/api/quickreg/:payid",
  "/admin/api/races",
  "/admin/api/races/audit/:raceId",
  "/admin/api/races/get/:raceId",
  "/admin/api/races/review/:raceId",
  "/admin/api/races/spectators/:raceId",
  "/admin/api/races/slots/:raceId",
  // Målfoto: one stored JPEG, read only (src/worker/race-day/photo-routes.ts).
  "/admin/api/races/photo/:raceId/:tapId/:frame",
  "/admin/api/registration-analytics",
  "/admin/api/box-office-sales",
  // The bib desk's reads: a family by its check-in code, by search or by id (the pick-up and the bib are POSTs).
  "/admin/api/checkin/code/:code",
  "/admin/api/checkin/family/:kind/:id",
  "/admin/api/checkin/search",
  "/admin/registrations",
  "/allmanna-villkor",
  // Draws the code it is given as a QR image; looks nothing up.
  "/api/checkin-qr/:file",
  "/api/config",
  "/api/family/diplomas",
  "/api/family/results",
  "/api/gallery",
  "/api/health",
  "/api/races",
  // A race's adults running with a child without competing (a read of D1, nothing written).
  "/api/races/companions/:part",
  "/api/races/get/:part",
  "/api/records",
  "/api/results",
  "/api/results/:year/:distance",
  "/banor",
  "/galleri",
  "/galleri-bilder/:year/:file",
  "/galleri/*",
  "/get",
  "/qr-v2",
  "/resultat",
  "/resultat/:csvfile",
  "/resultat/:year{[0-9]{4}}",
  "/startlistor",
  "/tidtagning",
  // Shows a confirmation page only; the unsubscribe itself is the POST.
  "/unsubscribe/:token",
  // Asks Swish about a payment: the answer can settle it, but only to what Swish says (like the callback hint).
  "/verify",
  "/ws/pay/:payid",
  "/ws/race/:raceId",
  "/ws/races",
  "/ws/spectate/:raceId",
]);

const stateChangingGets = mountedRoutes()
  .filter((r) => r.method === "GET" && !r.path.startsWith("/dev/") && !READ_ONLY_GETS.has(r.path))
  .map((r) => r.path);

describe("every state-changing GET needs the same-origin proof, and so does HEAD", () => {
  it("the route list has the spec's state-changing GETs (the enumeration sees the app)", () => {
    expect(stateChangingGets).toEqual(
      expect.arrayContaining([
        "/api/logout",
        "/admin/api/races/start/:raceId",
        "/admin/api/races/finish/:raceId/:sort",
        "/admin/api/races/reset/:raceId",
        "/admin/api/races/dns-not-picked-up/:raceId",
      ]),
    );
  });

  it.each(stateChangingGets.flatMap((path) => [["GET", path] as const, ["HEAD", path] as const]))(
    "%s %s with an admin's cookie and no same-origin proof is refused and changes nothing",
    async (method, path) => {
      const jar = await loginAdmin();
      const part = await newRace(jar);
      const runner = await addRunner(jar, part, { bib: 601 });
      const before = await snapshot(jar, part);
      const target = await newRace(jar, 2800);
      const url = concretePath(path, { raceId: part, targetRaceId: target, sort: runner.sort, bib: "602", mark: "on" });
      // The confirmed calls with their word, so only the guard can refuse them.
      const confirm = {
        "/admin/api/races/reset/:raceId": RESET_WORD,
        "/admin/api/races/dns-not-picked-up/:raceId": DNS_NOT_PICKED_UP_WORD,
      };
      const word = confirm[path as keyof typeof confirm];
      const res = await call(word === undefined ? url : `${url}?confirm=${word}`, { method, jar });
      expect(res.status).toBe(403);
      expect(await snapshot(jar, part)).toEqual(before);
      // The admin is still signed in (a refused logout signs nobody out).
      expect((await get("/admin/api/me", { jar })).status).toBe(200);
    },
  );
});
