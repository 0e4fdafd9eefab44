/**
 * Development's season switch (src/shared/dev-season.ts): CHILD_SAFE_PUBLISHING sets the season's child-safe
 * publishing for a local server's requests, and is ignored in the deployed configuration (every variable of
 * [env.production], vitest.config.ts) and for any value other than "true" or "false". The browser test that serves
 * the setting on through it is test/e2e/child-safe.test.ts.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { SEASON } from "../../../src/shared/season";
import { applyDevSeason } from "../../../src/shared/dev-season";
import { call } from "../helpers";

const PRODUCTION = JSON.parse(env.TEST_PRODUCTION_VARS) as Partial<Env>;
const BUILT = SEASON.childSafePublishing;

afterEach(() => {
  SEASON.childSafePublishing = BUILT;
});

describe("development's child-safe switch", () => {
  it("a request of a development server with CHILD_SAFE_PUBLISHING sets the season's setting, either way", async () => {
    SEASON.childSafePublishing = false;
    expect((await call("/api/health", { env: { CHILD_SAFE_PUBLISHING: "true" } })).status).toBe(200);
    expect(SEASON.childSafePublishing).toBe(true);
    expect((await call("/api/health", { env: { CHILD_SAFE_PUBLISHING: "false" } })).status).toBe(200);
    expect(SEASON.childSafePublishing).toBe(false);
  });

  it("the deployed configuration ignores it: the season stays as built", async () => {
    expect(PRODUCTION.DEV_MODE).toBe("false");
    for (const built of [false, true]) {
      SEASON.childSafePublishing = built;
      const on = { ...PRODUCTION, CHILD_SAFE_PUBLISHING: String(!built) };
      expect((await call("/api/health", { env: on })).status).toBe(200);
      expect(SEASON.childSafePublishing).toBe(built);
      applyDevSeason(on);
      expect(SEASON.childSafePublishing).toBe(built);
    }
  });

  it("without the variable, or with another value, nothing is touched", () => {
    for (const value of [undefined, "", "ja", "TRUE", "1"]) {
      SEASON.childSafePublishing = true;
      applyDevSeason({ DEV_MODE: "true", CHILD_SAFE_PUBLISHING: value });
      expect(SEASON.childSafePublishing).toBe(true);
    }
  });
});
