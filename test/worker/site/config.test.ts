/**
 * GET /api/config: who is signed in, the socket base, the server's time and the season as the server's clock
 * sees it (the development clock is shifted with NOW to put the season in each of its phases).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEV_NOW_HEADER } from "../../../src/shared/clock";
import { SEASON } from "../../../src/shared/season";
import { call, get, loginAdmin, visitorJar } from "../helpers";

interface Config {
  isAdmin: boolean;
  isLoggedIn: boolean;
  email: string | null;
  wsUrl: string;
  serverTime: number;
  devMode: boolean;
  googleClientId: string;
  season: {
    year: number;
    raceDay: string;
    registrationOpen: boolean;
    showRegistrationButton: boolean;
    showBibPickupBanner: boolean;
    priceTier: { adult: number; child: number };
    earlyPrice: { adult: number; child: number };
    latePrice: { adult: number; child: number };
    earlyPriceUntil: string;
    adultAge: number;
    distances: { distance: string; startTime: string; raceId: string }[];
    contactEmail: string;
    siteName: string;
  };
}

/** The config as the server sees it at `iso` (a moment with its offset). */
async function configAt(iso: string): Promise<Config> {
  const res = await get("/api/config", { env: { NOW: iso, NOW_SET_AT: String(Date.now()) } });
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /api/config", () => {
  it("describes an anonymous visitor, the socket base, the server time and the season; never cached", async () => {
    const before = Date.now();
    const res = await get("/api/config");
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const config = (await res.json()) as Config;
    expect(config).toMatchObject({
      isAdmin: false,
      isLoggedIn: false,
      email: null,
      wsUrl: "ws://localhost/ws",
      devMode: true,
      googleClientId: env.GOOGLE_CLIENT_ID,
    });
    expect(config.serverTime).toBeGreaterThanOrEqual(before);
    expect(config.serverTime).toBeLessThanOrEqual(after);
    expect(config.season).toMatchObject({
      year: 2025,
      raceDay: "2025-09-13",
      earlyPrice: { adult: 150, child: 100 },
      latePrice: { adult: 250, child: 150 },
      earlyPriceUntil: SEASON.earlyPriceUntil,
      adultAge: 16,
      contactEmail: SEASON.contactEmail,
      siteName: SEASON.siteName,
    });
    expect(config.season.distances).toEqual([
      { distance: "0.8", startTime: "11:00", raceId: "race-250913-08" },
      { distance: "1.6", startTime: "11:15", raceId: "race-250913-16" },
      { distance: "2.8", startTime: "11:45", raceId: "race-250913-28" },
      { distance: "5.6", startTime: "11:45", raceId: "race-250913-56" },
    ]);
  });

  it("gives wss:// beside https://", async () => {
    const config = (await (await call("https://lopp.example.se/api/config")).json()) as Config;
    expect(config.wsUrl).toBe("wss://lopp.example.se/ws");
    const port = (await (await call("http://127.0.0.1:8790/api/config")).json()) as Config;
    expect(port.wsUrl).toBe("ws://127.0.0.1:8790/ws");
  });

  it("says who is signed in", async () => {
    const visitor = (await (await get("/api/config", { jar: await visitorJar("konfig@example.se") })).json()) as Config;
    expect(visitor).toMatchObject({ isLoggedIn: true, isAdmin: false, email: "konfig@example.se" });
    const admin = (await (await get("/api/config", { jar: await loginAdmin() })).json()) as Config;
    expect(admin).toMatchObject({ isAdmin: true, isLoggedIn: false });
  });

  it("follows the season by the server's clock", async () => {
    const early = await configAt("2025-08-01T12:00:00+02:00");
    expect(early.serverTime).toBeGreaterThanOrEqual(Date.parse("2025-08-01T12:00:00+02:00"));
    expect(early.serverTime).toBeLessThan(Date.parse("2025-08-01T12:00:00+02:00") + 5_000);
    expect(early.season).toMatchObject({
      registrationOpen: true,
      showRegistrationButton: true,
      showBibPickupBanner: false,
      priceTier: { adult: 150, child: 100 },
    });

    // Last second of the early tier, then the late tier.
    expect((await configAt("2025-09-06T23:59:58+02:00")).season.priceTier).toEqual({ adult: 150, child: 100 });
    const late = await configAt("2025-09-07T00:00:01+02:00");
    expect(late.season).toMatchObject({
      registrationOpen: true,
      showBibPickupBanner: true,
      priceTier: { adult: 250, child: 150 },
    });

    const raceDay = await configAt("2025-09-13T12:30:00+02:00");
    expect(raceDay.season).toMatchObject({
      registrationOpen: false,
      showRegistrationButton: false,
      showBibPickupBanner: true,
    });

    expect((await configAt("2025-09-15T00:00:01+02:00")).season.showBibPickupBanner).toBe(false);
  });

  it("ignores NOW outside development", async () => {
    const res = await get("/api/config", { env: { DEV_MODE: "false", NOW: "2025-08-01T12:00:00+02:00" } });
    const config = (await res.json()) as Config;
    expect(config.devMode).toBe(false);
    expect(Math.abs(config.serverTime - Date.now())).toBeLessThan(5_000);
  });
});

describe("a request's own moment (x-loppet-dev-now, development only)", () => {
  const raceMorning = "2025-09-13T08:30:00+02:00";

  it("in development the request is answered at the moment it names, unmoving", async () => {
    const config = (await (await get("/api/config", { headers: { [DEV_NOW_HEADER]: raceMorning } })).json()) as Config;
    expect(config.serverTime).toBe(Date.parse(raceMorning));
    expect(config.season.registrationOpen).toBe(false);
    expect(config.season.showBibPickupBanner).toBe(true);
    // A moment that is no time is the server's own clock.
    const before = Date.now();
    const plain = (await (await get("/api/config", { headers: { [DEV_NOW_HEADER]: "i morgon" } })).json()) as Config;
    expect(plain.serverTime).toBeGreaterThanOrEqual(before);
  });

  it("production ignores it", async () => {
    const before = Date.now();
    const res = await get("/api/config", { headers: { [DEV_NOW_HEADER]: raceMorning }, env: { DEV_MODE: "false" } });
    const config = (await res.json()) as Config;
    expect(config.serverTime).toBeGreaterThanOrEqual(before);
  });
});
