/**
 * The Worker's HTTP app: one Hono sub-app per resource (src/worker/<resource>/routes.ts), mounted here, with one error
 * handler and the middleware every request passes. Data access lives in src/worker/db/*, never in Hono code.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { Retime } from "../shared/race-protocol";
import type { AppEnv } from "./env";
import { ApiError } from "./lib/errors";
import { appContext } from "./middleware/context";
import { cacheControlMiddleware } from "./middleware/cache-control";
import { adminGuard } from "./middleware/admin";
import { requireJsonBody } from "./middleware/json-body";
import { sameOrigin } from "./middleware/same-origin";
import { securityHeadersMiddleware } from "./middleware/security-headers";
import { sessionContext } from "./middleware/session";
import { authRoutes } from "./session/routes";
import { configRoutes } from "./site/config-routes";
import { healthRoutes } from "./site/health-routes";
import { dataRoutes } from "./results/routes";
import { galleryImageRoutes } from "./gallery/routes";
import { raceRoutes } from "./race-day/races-routes";
import { raceDayRoutes } from "./race-day/routes";
import { campaignRoutes } from "./campaigns/routes";
import { epassiRoutes } from "./epassi/routes";
import { adminExportRoutes } from "./exports/routes";
import { adminAnalyticsRoutes } from "./analytics/routes";
import { registrationRoutes } from "./registration/routes";
import { familyRoutes } from "./registration/family-routes";
import { pagesRoutes } from "./site/pages-routes";
import { notFound } from "./site/spa-fallback";
import { resultsImportRoutes } from "./results/import-routes";
import { paymentRoutes } from "./payments/routes";
import { adminRegistrationRoutes } from "./registrations/routes";
import { goodieBagRoutes } from "./goodiebags/routes";
import { personalDataRoutes } from "./personal-data/routes";
import { massEmailRoutes } from "./mass-email/routes";
import { unsubscribeRoutes } from "./mass-email/unsubscribe-routes";
import { boxOfficeRoutes } from "./box-office/routes";
import { checkinRoutes } from "./checkin/routes";
import { PHOTO_UPLOAD_PATH, photoRoutes } from "./race-day/photo-routes";
// Development only (DESIGN.md): every path these serve answers 404 unless DEV_MODE is "true".
import { devOnly } from "./dev/dev-only";
import { devRoutes } from "./dev/routes";
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

  // Routes are mounted below, one line per resource file.
  app.route("/", configRoutes);
  app.route("/", authRoutes);
  app.route("/", devRoutes);
  // Before the data routes: /resultat/{year} is a page, /resultat/{csvfile} a file (see pages.ts).
  app.route("/", pagesRoutes);
  app.route("/", dataRoutes);
  app.route("/", galleryImageRoutes);
  app.route("/", raceRoutes);
  app.route("/", raceDayRoutes);
  app.route("/", photoRoutes);
  app.route("/", healthRoutes);
  app.route("/", campaignRoutes);
  app.route("/", epassiRoutes);
  app.route("/", adminExportRoutes);
  app.route("/", adminAnalyticsRoutes);
  app.route("/", registrationRoutes);
  app.route("/", familyRoutes);
  app.route("/", resultsImportRoutes);
  app.route("/", paymentRoutes);
  app.route("/", adminRegistrationRoutes);
  app.route("/", goodieBagRoutes);
  app.route("/", personalDataRoutes);
  app.route("/", massEmailRoutes);
  app.route("/", unsubscribeRoutes);
  app.route("/", boxOfficeRoutes);
  app.route("/", checkinRoutes);
  app.route("/", devSwishRoutes);

  // Also every address that matches no built file (wrangler.toml: not_found_handling "none"): site/spa-fallback.ts.
  app.notFound(notFound);

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      const body: { error: string; errors?: Record<string, string>; retimes?: Retime[] } = { error: err.message };
      if (err.errors) body.errors = err.errors;
      if (err.retimes) body.retimes = err.retimes;
      return c.json(body, err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own messages are English ("Malformed JSON in request body"); the person gets a Swedish one.
      const message = /json/i.test(err.message) ? "Förfrågan innehåller ogiltig JSON." : "Ogiltig förfrågan.";
      return c.json({ error: message }, err.status);
    }
    console.error("unhandled", c.req.method, c.req.path, err);
    return c.json({ error: "Något gick fel på servern. Försök igen om en stund." }, 500);
  });

  return app;
}
