/**
 * `npm run deploy` refuses placeholders (scripts/lib/deploy-checks.mjs), as pure functions over the configuration
 * wrangler's own reader resolves: the template's production and staging configuration are refused line by line,
 * every remaining problem of a half-filled one is named at once, a filled-in one passes, and the secrets (read
 * by name once signed in) are named when missing. Reading the template gives no wrangler warning. The command
 * itself, run on the template without signing in: test/shared/deploy-command.test.ts.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { configProblems, requiredSecrets, secretProblems, SWISH_TEST_PAYEE } from "../../scripts/lib/deploy-checks.mjs";
import { SEASON } from "../../src/shared/season";

const ROOT = path.join(import.meta.dirname, "..", "..");
const CONFIG = path.join(ROOT, "wrangler.toml");

type Config = ReturnType<typeof unstable_readConfig>;

function configFor(environment: string): Config {
  return unstable_readConfig({ config: CONFIG, env: environment }, { hideWarnings: true });
}

/** The configuration as an organiser fills it in before the season. */
function filledIn(environment = "production"): Config {
  const config = configFor(environment);
  return {
    ...config,
    routes: [{ pattern: "byloppet.se", custom_domain: true }],
    vars: {
      ...config.vars,
      PUBLIC_ORIGIN: "https://byloppet.se",
      GOOGLE_CLIENT_ID: "123456789-abc.apps.googleusercontent.com",
      ADMIN_EMAILS: "arrangor@byloppet.se, kassan@byloppet.se",
      SWISH_PAYEE_ALIAS: environment === "production" ? "1231181189" : SWISH_TEST_PAYEE,
      EMAIL_FROM: "noreply@byloppet.se",
      MAP_TILE_URL: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
    },
    send_email: [{ name: "EMAIL", allowed_sender_addresses: ["noreply@byloppet.se"] }],
    mtls_certificates: [{ binding: "SWISH_CERT", certificate_id: "c7b1ee4e-05b1-4a3a-a5a0-7c8d2f2b8e11" }],
    d1_databases: config.d1_databases.map((d: Config["d1_databases"][number]) => ({
      ...d,
      database_id: "9f3a1c2e-0000-4a3a-a5a0-7c8d2f2b8e11",
    })),
  } as Config;
}

function withVars(config: Config, vars: Record<string, string>): Config {
  return { ...config, vars: { ...config.vars, ...vars } } as Config;
}

describe("deploy checks: the configuration", () => {
  it("refuse the template's production configuration, one line per placeholder", () => {
    const problems = configProblems({ environment: "production", config: configFor("production"), season: SEASON });
    expect(problems.map((p: string) => p.split(/[ :(]/)[0])).toEqual([
      "PUBLIC_ORIGIN",
      "Sajtens",
      "GOOGLE_CLIENT_ID",
      "ADMIN_EMAILS",
      "SWISH_PAYEE_ALIAS",
      "Swish-certifikatet",
      "D1-databasens",
      "EMAIL_FROM",
      "allowed_sender_addresses",
      "Kartbilderna",
      "Kontaktadressen",
    ]);
    const text = problems.join("\n");
    for (const named of ["SWISH_CERT", "database_id", "routes = [{", "custom_domain = true", "MAP_TILE_URL"]) {
      expect(text).toContain(named);
    }
  });

  it("pass a filled-in production configuration and season", () => {
    const season = { ...SEASON, contactEmail: "info@byloppet.se" };
    expect(configProblems({ environment: "production", config: filledIn(), season })).toEqual([]);
    expect(configProblems({ environment: "production", config: filledIn(), season: SEASON })).toEqual([
      "Kontaktadressen contactEmail i src/shared/season.ts är fortfarande mallens (info@example.se): ange föreningens adress.",
    ]);
  });

  it("name every remaining problem of a half-filled configuration at once", () => {
    const half = withVars(filledIn(), {
      PUBLIC_ORIGIN: "http://byloppet.se",
      DEV_MODE: "true",
      GOOGLE_CLIENT_ID: "dev-client-id.apps.googleusercontent.com",
      ADMIN_EMAILS: " , arrangor-byloppet.se",
      SWISH_PAYEE_ALIAS: SWISH_TEST_PAYEE,
      EMAIL_FROM: "info@byloppet.se",
      MAP_TILE_URL: "tile.openstreetmap.org",
    });
    expect(configProblems({ environment: "production", config: half })).toEqual([
      'DEV_MODE måste vara "false" under [env.production] (nu "true").',
      'PUBLIC_ORIGIN måste vara sajtens https-adress (nu "http://byloppet.se").',
      'GOOGLE_CLIENT_ID är fortfarande mallens ("dev-client-id.apps.googleusercontent.com"): ange OAuth-klientens id från Google.',
      'ADMIN_EMAILS: "arrangor-byloppet.se" är ingen e-postadress (skilj adresserna åt med kommatecken).',
      "SWISH_PAYEE_ALIAS är Swish testnummer 1234679304: ange föreningens eget Swish-nummer.",
      "EMAIL_FROM (info@byloppet.se) finns inte bland allowed_sender_addresses (noreply@byloppet.se).",
      'MAP_TILE_URL ska vara en https-adress med {z}, {x} och {y} (nu "tile.openstreetmap.org").',
    ]);
  });

  it("want the site's own address as a custom-domain route to PUBLIC_ORIGIN's host", () => {
    const problems = (routes: unknown[]) =>
      configProblems({ environment: "production", config: { ...filledIn(), routes } as Config });
    expect(problems([])).toEqual([
      'Sajtens adress saknas: lägg till routes = [{ pattern = "byloppet.se", custom_domain = true }] direkt under [env.production] (domänen ska ligga på ditt Cloudflare-konto).',
    ]);
    expect(problems([{ pattern: "lopp.example.se", custom_domain: true }])).toEqual([
      'Routen under [env.production] är fortfarande mallens (lopp.example.se): ange routes = [{ pattern = "byloppet.se", custom_domain = true }].',
    ]);
    expect(problems([{ pattern: "www.byloppet.se", custom_domain: true }])).toEqual([
      "Routen under [env.production] (www.byloppet.se) pekar inte på PUBLIC_ORIGIN:s adress byloppet.se.",
    ]);
    expect(problems(["byloppet.se/*"])).toEqual([]);
  });

  it("e-mail: Cloudflare's sender list must hold EMAIL_FROM; Resend needs no list but its key", () => {
    const template = { ...filledIn(), send_email: configFor("production").send_email } as Config;
    expect(configProblems({ environment: "production", config: template })).toEqual([
      "allowed_sender_addresses under [[env.production.send_email]] är fortfarande mallens (noreply@example.se): ange samma adress som EMAIL_FROM.",
    ]);
    const resend = withVars(template, { EMAIL_TRANSPORT: "resend" });
    expect(configProblems({ environment: "production", config: resend })).toEqual([]);
    expect(requiredSecrets(resend)).toEqual(["SESSION_SECRET", "CAMPAIGN_CODES", "EMAIL_API_KEY"]);
    expect(
      configProblems({ environment: "production", config: withVars(template, { EMAIL_TRANSPORT: "outbox" }) }),
    ).toContain('EMAIL_TRANSPORT ska vara "cloudflare" eller "resend" (nu "outbox").');
  });

  it("staging pays through MSS with Swish's test number, may live on workers.dev, and still needs its placeholders filled", () => {
    expect(configProblems({ environment: "staging", config: filledIn("staging") })).toEqual([]);
    const workersDev = {
      ...withVars(filledIn("staging"), { PUBLIC_ORIGIN: "https://loppet-staging.klubben.workers.dev" }),
      routes: [],
    } as Config;
    expect(configProblems({ environment: "staging", config: workersDev })).toEqual([]);
    const template = configProblems({ environment: "staging", config: configFor("staging") }).join("\n");
    expect(template).not.toContain("SWISH_PAYEE_ALIAS");
    expect(template).toContain("SWISH_CERT");
    expect(template).toContain("[env.staging]");
  });
});

describe("deploy checks: the secrets, by name", () => {
  it("name every secret not set, with the command that sets it", () => {
    expect(secretProblems({ environment: "production", config: filledIn(), secrets: [] })).toEqual([
      "Hemligheten SESSION_SECRET saknas: `npx wrangler secret put SESSION_SECRET --env production` (minst 32 slumpade tecken, t.ex. från `openssl rand -base64 48`).",
      'Hemligheten CAMPAIGN_CODES saknas: `npx wrangler secret put CAMPAIGN_CODES --env production` (kampanjorden som JSON, t.ex. {"VANLOPP50":{"rule":"flat50"}}; {} om ni inte har några).',
    ]);
    expect(
      secretProblems({ environment: "staging", config: filledIn("staging"), secrets: ["CAMPAIGN_CODES"] }),
    ).toEqual([
      "Hemligheten SESSION_SECRET saknas: `npx wrangler secret put SESSION_SECRET --env staging` (minst 32 slumpade tecken, t.ex. från `openssl rand -base64 48`).",
    ]);
    expect(
      secretProblems({ environment: "production", config: filledIn(), secrets: ["SESSION_SECRET", "CAMPAIGN_CODES"] }),
    ).toEqual([]);
  });
});

describe("the template as wrangler reads it", () => {
  it("gives no warning for any environment: nothing tells the organiser to put SESSION_SECRET in plain vars", () => {
    const script = `
      const { unstable_readConfig } = require("wrangler");
      for (const env of [undefined, "production", "staging"]) unstable_readConfig({ config: ${JSON.stringify(CONFIG)}, env });
    `;
    const run = spawnSync(process.execPath, ["-e", script], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, CI: "true" },
    });
    expect(run.status).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/WARNING|SESSION_SECRET|not inherited/);
  });

  it("keeps no secret among any environment's plain variables", () => {
    for (const environment of [undefined, "production", "staging"]) {
      const vars = unstable_readConfig({ config: CONFIG, env: environment }, { hideWarnings: true }).vars;
      for (const secret of [...requiredSecrets({ vars: { EMAIL_TRANSPORT: "resend" } })]) {
        expect(vars, `${environment ?? "top level"}: ${secret}`).not.toHaveProperty(secret);
      }
    }
  });
});
