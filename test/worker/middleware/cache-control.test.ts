/**
 * Workers Cache keeps any answer that does not say otherwise (wrangler.toml turns it on where the site is
 * deployed), and its key holds no cookie: every answer of the Worker says whether it may be kept. An answer whose
 * route says nothing is `private, no-store` (src/worker/middleware/cache-control.ts), a signed-in visitor's and an
 * admin's above all; the routes that are the same for everyone keep their own.
 */
import { describe, expect, it } from "vitest";
import { PRIVATE_NO_STORE } from "../../../src/worker/middleware/cache-control";
import { call, get, loginAdmin, openSocket, rawPost, visitorJar } from "../helpers";

describe("what the edge cache may keep", () => {
  it("an answer for one visitor, an error or a route without its own policy is private, no-store", async () => {
    const admin = await loginAdmin();
    const visitor = await visitorJar("familjen@example.se");
    const answers: [string, Response][] = [
      ["races (no policy of its own)", await call("/api/races")],
      ["an admin's list", await get("/admin/api/races", { jar: admin })],
      ["a visitor's registration without one", await get("/get")],
      ["unknown path", await call("/api/nothing-here")],
      ["bad JSON", await rawPost("/email", "{not json")],
      ["server error", await call("/api/races", { env: { DB: undefined as unknown as D1Database } })],
    ];
    for (const [what, res] of answers) {
      expect(res.headers.get("cache-control"), what).toBe(PRIVATE_NO_STORE);
    }
    // Routes that already say it keep their word.
    expect((await call("/api/config", { jar: visitor })).headers.get("cache-control")).toBe("no-store");
    expect((await get("/get", { jar: visitor })).headers.get("cache-control")).toBe("no-store");
  });

  it("what is the same for everyone says so itself: a race's public view, the results data", async () => {
    const view = await call("/api/races/get/race-250913-56");
    expect(view.status).toBe(200);
    expect(view.headers.get("cache-control")).toBe("no-cache");
    expect(view.headers.get("cloudflare-cdn-cache-control")).toMatch(/^public, max-age=1\b/);
    expect((await call("/api/records")).headers.get("cache-control")).toMatch(/^public, /);
  });

  it("leaves a socket upgrade alone", async () => {
    const socket = await openSocket("/ws/spectate/race-250913-56");
    expect(((await socket.next()) as { type: string }).type).toBe("snapshot");
    socket.ws.close();
  });
});
