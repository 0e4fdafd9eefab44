/**
 * The Worker's HTTP app: one Hono sub-app per resource (src/worker/<resource>/routes.ts), mounted here, with one error
 * handler and the middleware every request passes. Data access lives in src/worker/db/*, never in Hono code.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ErrorAnswer } from "../shared/api-answers";
import type { AppEnv } from "./env";
import { ApiError } from "./lib/errors";
import { appContext } from "./middleware/context";
import { cacheControlMiddleware } from "./middleware/cache-control";
import { adminGuard } from "./middleware/admin";
import { adminRole } from "./middleware/admin-role";
import { ADMIN_ROLE_PATHS } from "./middleware/route-roles";
import { requireJsonBody } from "./middleware/json-body";
import { sameOrigin } from "./middleware/same-origin";
import { securityHeadersMiddleware } from "./middleware/security-headers";
import { sessionContext } from "./session/session-middleware";
import { authRoutes, logoutRoutes } from "./session/routes";
import { adminsRoutes } from "./session/admins-routes";
import { configRoutes } from "./site/config-routes";
import { healthRoutes } from "./site/health-routes";
import { recordsRoutes, resultFileRoutes, resultsRoutes } from "./results/routes";
import { galleryFileRoutes, galleryImageRoutes, galleryRoutes } from "./gallery/routes";
import { publicRaceRoutes, raceRoutes, spectateRoutes } from "./race-day/races-routes";
import { raceDayRoutes, raceSocketRoutes } from "./race-day/routes";
import { campaignRoutes } from "./campaigns/routes";
import { epassiRoutes } from "./epassi/routes";
import { adminExportRoutes } from "./exports/routes";
import { adminAnalyticsRoutes } from "./analytics/routes";
import { registrationRoutes } from "./registration/routes";
import { diplomaRoutes, familyRoutes } from "./registration/family-routes";
import { pagesRoutes } from "./site/pages-routes";
import { notFound } from "./site/spa-fallback";
import { resultsImportRoutes } from "./results/import-routes";
import { paymentRoutes, paymentSocketRoutes, refundRoutes, swishCallbackRoutes } from "./payments/routes";
import { adminRegistrationRoutes, boxOfficeSalesRoutes } from "./registrations/routes";
import { goodieBagRoutes } from "./goodiebags/routes";
import { personalDataRoutes } from "./personal-data/routes";
import { mailingRoutes, massEmailRoutes } from "./mass-email/routes";
import { unsubscribeRoutes } from "./mass-email/unsubscribe-routes";
import { boxOfficeRoutes } from "./box-office/routes";
import { checkinQrRoutes, checkinRoutes } from "./checkin/routes";
import { PHOTO_UPLOAD_PATH, photoRoutes } from "./race-day/photo-routes";
// Development only (DESIGN.md): every path these serve answers 404 unless DEV_MODE is "true".
import { devOnly } from "./dev/dev-only";
import { devLoginRoutes, devRoutes } from "./dev/routes";
import { devSwishRoutes } from "./dev/swish-simulator";

/** Largest JSON body any call needs (a family's runner map, a mass e-mail text). */
export const MAX_BODY_BYTES = 64 * 1024;

export function createApp() {
  const app = new Hono<AppEnv>();

  // Outermost, so every answer below gets the headers, the error handler's and the 404's included.
  app.use(securityHeadersMiddleware);
  // Just as outer: no answer reaches the edge cache without saying whether it may be kept.
  app.use(cacheControlMiddleware);
  app.use(appContext);
  app.use(sameOrigin);
  app.use(requireJsonBody);
  const jsonLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, "För stor förfrågan.");
    },
  });
  // Målfoto's upload is a JPEG, not JSON, with its own limit (race-day/photo-routes.ts reads it capped).
  app.use((c, next) => (PHOTO_UPLOAD_PATH.test(c.req.path) ? next() : jsonLimit(c, next)));
  app.use(sessionContext);
  // Guards before any route, so a path is protected whether or not its route exists yet.
  app.use("/dev/*", devOnly);
  app.use("/admin/api/*", adminGuard);
  app.use("/admin/registrations", adminGuard);
  app.use("/admin/registrations/*", adminGuard);
  // Then the role each admin route states (middleware/route-roles.ts): a volunteer gets a Swedish 403 from an organiser's call.
  for (const path of ADMIN_ROLE_PATHS) app.use(path, adminRole);

  // Each resource's sub-apps, mounted at their prefixes (their routes are relative to it). A resource whose paths
  // the spec puts at the site's root (the pages, the registration calls, /verify and /qr-v2, /img_{year}.txt) is
  // mounted at "/". The order is the old one: /resultat/{year} is a page, /resultat/{csvfile} a file (pages-routes.ts).
  app.route("/api/config", configRoutes);
  app.route("/admin/api", authRoutes);
  app.route("/admin/api/admins", adminsRoutes);
  app.route("/api/logout", logoutRoutes);
  app.route("/admin/api/dev-login", devLoginRoutes);
  app.route("/dev", devRoutes);
  app.route("/", pagesRoutes);
  app.route("/resultat", resultFileRoutes);
  app.route("/api/results", resultsRoutes);
  app.route("/api/records", recordsRoutes);
  app.route("/api/gallery", galleryRoutes);
  app.route("/", galleryFileRoutes);
  app.route("/galleri-bilder", galleryImageRoutes);
  app.route("/api/races", publicRaceRoutes);
  app.route("/ws/spectate", spectateRoutes);
  app.route("/admin/api/races", raceRoutes);
  app.route("/admin/api/races", raceDayRoutes);
  app.route("/admin/api/races", photoRoutes);
  app.route("/ws", raceSocketRoutes);
  app.route("/api/health", healthRoutes);
  app.route("/admin/api/kampanjkoder", campaignRoutes);
  app.route("/admin/api/invite/epassi", epassiRoutes);
  app.route("/admin/api", adminExportRoutes);
  app.route("/admin/api/registration-analytics", adminAnalyticsRoutes);
  app.route("/", registrationRoutes);
  app.route("/api/family", familyRoutes);
  app.route("/admin/api/diplomas", diplomaRoutes);
  app.route("/admin/api/results", resultsImportRoutes);
  app.route("/", paymentRoutes);
  app.route("/ws/pay", paymentSocketRoutes);
  app.route("/swish/callback", swishCallbackRoutes);
  app.route("/admin/api/refunds", refundRoutes);
  app.route("/admin/registrations", adminRegistrationRoutes);
  app.route("/admin/api/box-office-sales", boxOfficeSalesRoutes);
  app.route("/admin/api/goodiebags", goodieBagRoutes);
  app.route("/admin/api/personal-data", personalDataRoutes);
  app.route("/admin/api", massEmailRoutes);
  app.route("/admin/api/mailings", mailingRoutes);
  app.route("/unsubscribe", unsubscribeRoutes);
  app.route("/admin/api/quickreg", boxOfficeRoutes);
  app.route("/admin/api/checkin", checkinRoutes);
  app.route("/api/checkin-qr", checkinQrRoutes);
  app.route("/dev", devSwishRoutes);

  // Also every address that matches no built file (wrangler.toml: not_found_handling "none"): site/spa-fallback.ts.
  app.notFound(notFound);

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      const body: ErrorAnswer = { error: err.message };
      if (err.errors) body.errors = err.errors;
      if (err.retimes) body.retimes = err.retimes;
      if (err.retryAfter !== undefined) c.header("retry-after", String(err.retryAfter));
      return c.json(body, err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own messages are English ("Malformed JSON in request body"); the person gets a Swedish one.
      const message = /json/i.test(err.message) ? "Förfrågan innehåller ogiltig JSON." : "Ogiltig förfrågan.";
      return c.json({ error: message } satisfies ErrorAnswer, err.status);
    }
    console.error("unhandled", c.req.method, c.req.path, err);
    return c.json({ error: "Något gick fel på servern. Försök igen om en stund." } satisfies ErrorAnswer, 500);
  });

  return app;
}
