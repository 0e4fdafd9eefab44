/**
 * GET /api/config: what the SPA needs before it renders anything: who is signed in, where the live sockets are,
 * the server's time (the browser takes "now" from here, so a wrong phone clock cannot reopen a closed
 * registration), and the season as the server's clock sees it. Never cached: it changes at sign-in and with time.
 */
import { Hono } from "hono";
import { priceTier } from "../../shared/pricing";
import { raceIdForSeason } from "../../shared/race-id";
import { SEASON } from "../../shared/season";
import {
  isRegistrationOpen,
  openDistances,
  showBibPickupBanner,
  isOnSiteRegistrationDay,
  showRegistrationButton,
} from "../../shared/season-rules";
import type { AppEnv } from "../env";
import type { Config } from "../../shared/api-answers";

export const configRoutes = new Hono<AppEnv>();

const NO_STORE = { "cache-control": "no-store" };

/** The live-socket base for the page's own origin: ws:// beside http://, wss:// beside https://. */
export function wsUrlFor(requestUrl: string): string {
  const url = new URL(requestUrl);
  return `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}/ws`;
}

configRoutes.get("/", (c) => {
  const now = c.var.clock.now();
  const season = SEASON;
  return c.json(
    {
      isAdmin: c.var.admin !== null,
      isLoggedIn: c.var.session !== null,
      email: c.var.session?.email ?? null,
      adminEmail: c.var.admin?.email ?? null,
      // The admin's role (issue 43): the SPA's menu and pages follow it; the Worker checks it on every call.
      adminRole: c.var.admin?.role ?? null,
      wsUrl: wsUrlFor(c.req.url),
      serverTime: now,
      devMode: c.var.devMode,
      googleClientId: c.env.GOOGLE_CLIENT_ID,
      season: {
        year: season.year,
        raceDay: season.raceDay,
        registrationOpen: isRegistrationOpen(now, season),
        showRegistrationButton: showRegistrationButton(now, season),
        showBibPickupBanner: showBibPickupBanner(now, season),
        onSiteRegistration: isOnSiteRegistrationDay(now, season),
        priceTier: priceTier(now, season),
        earlyPrice: season.earlyPrice,
        latePrice: season.latePrice,
        earlyPriceUntil: season.earlyPriceUntil,
        lastRegistration: season.lastRegistration,
        registrationButtonUntil: season.registrationButtonUntil,
        onSitePrice: season.onSitePrice,
        adultAge: season.adultAge,
        companionPrice: season.companionPrice,
        distances: openDistances(season).map((distance) => ({
          distance,
          startTime: season.races.find((r) => r.distance === distance)!.startTime,
          raceId: raceIdForSeason(distance, season),
        })),
        contactEmail: season.contactEmail,
        siteName: season.siteName,
      },
    } satisfies Config,
    200,
    NO_STORE,
  );
});
