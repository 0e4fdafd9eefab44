/**
 * `npm start` takes any [vars] value of wrangler.toml from an environment variable of the same name
 * (scripts/lib/settings.mjs), so an operator can point the local site at another Swish API or identity provider;
 * the servers the tests start never inherit such an override. Development's switches (CHILD_SAFE_PUBLISHING) are
 * passed on the same way, and only as "true" or "false".
 */
import { describe, expect, it } from "vitest";
import {
  configuredVars,
  DEV_SECRETS,
  serverVars,
  settingsFromEnv,
  withoutVarOverrides,
} from "../../scripts/lib/settings.mjs";

const settings = { now: "2025-08-25T10:00:00+02:00", origin: "http://localhost:9000" };

describe("npm start's variables", () => {
  it("without overrides: the configured values, local URLs moved to the server's own origin", () => {
    const vars = serverVars(settings, 1, {});
    expect(vars).toMatchObject({
      NOW: "2025-08-25T08:00:00.000Z",
      NOW_SET_AT: "1",
      SWISH_BASE_URL: "http://localhost:9000/dev/swish/swish-cpcapi/api/",
      GOOGLE_JWKS_URL: "http://localhost:9000/dev/jwks.json",
      PUBLIC_ORIGIN: "http://localhost:9000",
    });
    expect(vars).not.toHaveProperty("SWISH_PAYEE_ALIAS");
  });

  it("takes any [vars] value from the environment: another Swish, another identity provider", () => {
    const env = {
      SWISH_BASE_URL: "https://swish-proxy.test/swish-cpcapi/api/",
      SWISH_PAYEE_ALIAS: "1231181189",
      GOOGLE_JWKS_URL: "https://idp.test/jwks.json",
      GOOGLE_CLIENT_ID: "operator.apps.googleusercontent.com",
      // The clock stays the server's own: NOW is read as the clock's start, NOW_SET_AT is set when it starts.
      NOW_SET_AT: "0",
      UNRELATED: "x",
    };
    const vars = serverVars(settings, 1, env);
    expect(vars).toMatchObject({
      SWISH_BASE_URL: "https://swish-proxy.test/swish-cpcapi/api/",
      SWISH_PAYEE_ALIAS: "1231181189",
      GOOGLE_JWKS_URL: "https://idp.test/jwks.json",
      GOOGLE_CLIENT_ID: "operator.apps.googleusercontent.com",
      NOW_SET_AT: "1",
      PUBLIC_ORIGIN: "http://localhost:9000",
    });
    expect(vars).not.toHaveProperty("UNRELATED");
    for (const key of Object.keys(configuredVars()))
      expect(Object.keys(serverVars(settings, 1, { [key]: "v" }))).toContain(key);
  });

  it("passes the CAMPAIGN_CODES secret on when the environment has it, to try a production JSON locally", () => {
    const secret = '{"LOKALKOD": {"rule": "free"}}';
    expect(serverVars(settings, 1, { CAMPAIGN_CODES: secret })).toMatchObject({ CAMPAIGN_CODES: secret });
    expect(serverVars(settings, 1, {})).not.toHaveProperty("CAMPAIGN_CODES");
  });

  it("gives the local server development's secrets, which wrangler.toml does not hold", () => {
    expect(configuredVars()).not.toHaveProperty("SESSION_SECRET");
    expect(serverVars(settings, 1, {})).toMatchObject({ SESSION_SECRET: DEV_SECRETS.SESSION_SECRET });
    expect(DEV_SECRETS.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    const own = "a-developer-s-own-secret-of-32-characters";
    expect(serverVars(settings, 1, { SESSION_SECRET: own })).toMatchObject({ SESSION_SECRET: own });
  });

  it("passes development's child-safe switch on when the environment sets it; another value stops the start", () => {
    expect(configuredVars()).not.toHaveProperty("CHILD_SAFE_PUBLISHING");
    expect(serverVars(settings, 1, { CHILD_SAFE_PUBLISHING: "true" })).toMatchObject({ CHILD_SAFE_PUBLISHING: "true" });
    expect(serverVars(settings, 1, { CHILD_SAFE_PUBLISHING: "false" })).toMatchObject({
      CHILD_SAFE_PUBLISHING: "false",
    });
    expect(serverVars(settings, 1, {})).not.toHaveProperty("CHILD_SAFE_PUBLISHING");
    expect(settingsFromEnv({ CHILD_SAFE_PUBLISHING: "true" }).port).toBe(8787);
    expect(() => settingsFromEnv({ CHILD_SAFE_PUBLISHING: "ja" })).toThrow(
      "Ogiltig CHILD_SAFE_PUBLISHING (ange true eller false): ja",
    );
  });

  it("the servers the tests and benchmarks start drop such overrides", () => {
    const env = withoutVarOverrides({
      PATH: "/bin",
      NOW: "2025-09-13T10:00:00+02:00",
      SWISH_BASE_URL: "https://x.test/",
      CAMPAIGN_CODES: '{"SKALKOD": {"rule": "free"}}',
      SESSION_SECRET: "a-developer-s-own-secret-of-32-characters",
      CHILD_SAFE_PUBLISHING: "true",
    });
    expect(env).toEqual({ PATH: "/bin", NOW: "2025-09-13T10:00:00+02:00" });
  });
});
