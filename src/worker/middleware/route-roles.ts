/**
 * Which role every admin route needs (issue 43), in one table: the route as the app mounts it (method and path
 * pattern, exactly as in `createApp().routes`) → 'volunteer' (Funktionär, and so every organiser too) or 'organiser'
 * (Arrangör only). The roles themselves: src/shared/admin-roles.ts.
 *
 * Enforced by one middleware (middleware/admin-role.ts) on ADMIN_ROLE_PATHS, after the admin guard: it finds the
 * route that will answer the request (Hono's matched routes) and looks it up here. Deny by default: an admin route
 * missing from this table answers 403 to everyone, organisers included, and test/worker/middleware/admin-roles.test.ts
 * fails for it (and for an entry that names no mounted route), walking the app's real route list.
 *
 * A volunteer keeps everything race morning needs: the race screen's calls and sockets (taps, bibs, rapid timing, the
 * review list, the race's log, creating a race and its runners), the bib desk, the box office and the race list with
 * its diplomas. Resetting a race and 'Officiella' are the organiser's, and so is every call of the back office.
 */
import type { AdminRole } from "../../shared/admin-roles";

/** Where the role middleware runs (app.ts): every admin route, the admins' sockets included. */
export const ADMIN_ROLE_PATHS = [
  "/admin/api/*",
  "/admin/registrations",
  "/admin/registrations/*",
  "/ws/race/*",
  "/ws/races",
] as const;

/** Signing in: no role (and no session) needed. */
export const SIGN_IN_ROUTES: ReadonlySet<string> = new Set([
  "POST /admin/api/authenticate",
  "POST /admin/api/dev-login",
]);

const V = "volunteer";
const O = "organiser";

export const ROUTE_ROLES: Readonly<Record<string, AdminRole>> = {
  // Who am I (the SPA asks for its menu) and the admins screen.
  "GET /admin/api/me": V,
  "GET /admin/api/admins": O,
  "POST /admin/api/admins": O,
  "POST /admin/api/admins/change-role": O,
  "POST /admin/api/admins/remove": O,

  // The race hub, the race screen and rapid timing (race-day/routes.ts, races-routes.ts) and their sockets.
  "GET /admin/api/races": V,
  "GET /admin/api/races/get/:raceId": V,
  "GET /admin/api/races/spectators/:raceId": V,
  "GET /admin/api/races/start/:raceId": V,
  "GET /admin/api/races/finish/:raceId/:sort": V,
  "GET /admin/api/races/restore/:raceId/:sort": V,
  "GET /admin/api/races/register-bib/:raceId/:sort/:bib": V,
  "GET /admin/api/races/dns/:raceId/:sort/:mark": V,
  "GET /admin/api/races/dns-not-picked-up/:raceId": V,
  "GET /admin/api/races/end/:raceId": V,
  "GET /admin/api/races/reset/:raceId": O,
  "GET /admin/api/races/review/:raceId": V,
  "POST /admin/api/races/review/:raceId/:itemId/apply": V,
  "POST /admin/api/races/review/:raceId/:itemId/discard": V,
  "POST /admin/api/races/rapid/:raceId": V,
  "POST /admin/api/races/bibs/:raceId": V,
  "POST /admin/api/races/bibs/:raceId/:entryId/change": V,
  "POST /admin/api/races/bibs/:raceId/:entryId/remove": V,
  "POST /admin/api/races/bibs/:raceId/:entryId/restore": V,
  "GET /admin/api/races/slots/:raceId": V,
  "POST /admin/api/races/slots/:raceId/:tapId/assign": V,
  "POST /admin/api/races/slots/:raceId/:tapId/unassign": V,
  "POST /admin/api/races/slots/:raceId/:tapId/discard": V,
  "POST /admin/api/races/slots/:raceId/:tapId/restore": V,
  "POST /admin/api/races/main-timer/:raceId": V,
  "POST /admin/api/races/official/:raceId": O,
  "POST /admin/api/races/restore-time/:raceId/:seq": V,
  "GET /admin/api/races/change-distance/:targetRaceId/:raceId/:sort": V,
  "GET /admin/api/races/audit/:raceId": V,
  // Målfoto (race-day/photo-routes.ts): the timing phones send and show the photos; deleting them all is an
  // organiser's ('Radera målfoton').
  "PUT /admin/api/races/photo/:raceId/:tapId/:frame": V,
  "GET /admin/api/races/photo/:raceId/:tapId/:frame": V,
  "POST /admin/api/races/photos-delete/:raceId": O,
  // The race list and the runner list (start lists): races and runners added and edited on race morning.
  "POST /admin/api/races/create-race/:raceId": V,
  "POST /admin/api/races/add-runner/:raceId": V,
  "POST /admin/api/races/update-runner/:raceId/:sort": V,
  "GET /admin/api/diplomas/:race": V,
  "GET /ws/race/:raceId": V,
  "GET /ws/races": V,

  // The bib desk (checkin/routes.ts) and the box office (box-office/routes.ts).
  "GET /admin/api/checkin/code/:code": V,
  "GET /admin/api/checkin/search": V,
  "GET /admin/api/checkin/family/:kind/:id": V,
  "POST /admin/api/checkin/pickup": V,
  "POST /admin/api/checkin/bib": V,
  "POST /admin/api/quickreg": V,
  "POST /admin/api/quickreg/companion": V,
  "GET /admin/api/quickreg/:payid": V,
  "POST /admin/api/quickreg/:payid/cancel": V,

  // Registrations and refunds.
  "GET /admin/registrations": O,
  "GET /admin/api/box-office-sales": O,
  "POST /admin/api/refunds": O,
  "POST /admin/api/refunds/:id/check": O,
  // Exports and analytics.
  "GET /admin/api/export2racesplitter": O,
  "GET /admin/api/export/registrations.csv": O,
  "GET /admin/api/export/friidrott.csv": O,
  "GET /admin/api/registration-analytics": O,
  "GET /admin/api/goodiebags": O,
  // Campaign codes and Epassi.
  "GET /admin/api/kampanjkoder": O,
  "POST /admin/api/kampanjkoder": O,
  "POST /admin/api/kampanjkoder/:code/disable": O,
  "POST /admin/api/kampanjkoder/:code/enable": O,
  "GET /admin/api/invite/epassi": O,
  "POST /admin/api/invite/epassi": O,
  "POST /admin/api/invite/epassi/:id/resend": O,
  // Results import.
  "POST /admin/api/results/import": O,
  // Personal data: export and erasure.
  "GET /admin/api/personal-data": O,
  "GET /admin/api/personal-data/box-office": O,
  "GET /admin/api/personal-data/export": O,
  "POST /admin/api/personal-data/erase": O,
  // Mass e-mail.
  "GET /admin/api/previous-runners-count": O,
  "GET /admin/api/previous-runners": O,
  "POST /admin/api/send-email-previous-runners": O,
  "GET /admin/api/get_current_runners_count_handler": O,
  "GET /admin/api/get_current_runners_handler": O,
  "POST /admin/api/send-email-current-runners": O,
  "GET /admin/api/mailings/waiting": O,
  "GET /admin/api/mailings/:id": O,
  "POST /admin/api/mailings/:id/resume": O,
  "POST /admin/api/mailings/results/:race/resume": O,
};

/** The table's key of a mounted route. */
export function routeKey(method: string, path: string): string {
  return `${method} ${path}`;
}
