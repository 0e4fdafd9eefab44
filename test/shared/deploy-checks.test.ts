/**
 * `npm run deploy` refuses placeholders (scripts/lib/deploy-checks.mjs): the template's own production and staging
 * configuration, read with wrangler's reader, is refused line by line; a filled-in one passes.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { deployNotes, deployProblems, SWISH_TEST_PAYEE } from "../../scripts/lib/deploy-checks.mjs";

const CONFIG = path.join(import.meta.dirname, "..", "..", "wrangler.toml");

function configFor(environment: string) {
  return unstable_readConfig({ config: CONFIG, env: environment }, { hideWarnings: true });
}

/** The production configuration as an organiser fills it in before the season. */
function filledIn(environment = "production") {
  const config = configFor(environment);
  return {
    ...config,
    vars: {
      ...config.vars,
      PUBLIC_ORIGIN: "https://byloppet.se",
      GOOGLE_CLIENT_ID: "123456789-abc.apps.googleusercontent.com",
      ADMIN_EMAILS: "arrangor@byloppet.se",
      SWISH_PAYEE_ALIAS: environment === "production" ? "1231181189" : SWISH_TEST_PAYEE,
    },
    mtls_certificates: [{ binding: "SWISH_CERT", certificate_id: "c7b1ee4e-05b1-4a3a-a5a0-7c8d2f2b8e11" }],
    d1_databases: config.d1_databases.map((d: { binding: string }) => ({
      ...d,
      database_id: "9f3a1c2e-0000-4a3a-a5a0-7c8d2f2b8e11",
    })),
  };
}

describe("deploy checks", () => {
  it("refuse the template's production configuration, naming each placeholder", () => {
    const problems = deployProblems({ environment: "production", config: configFor("production"), secrets: [] });
    const text = problems.join("\n");
    for (const name of [
      "PUBLIC_ORIGIN",
      "GOOGLE_CLIENT_ID",
      "ADMIN_EMAILS",
      "SWISH_PAYEE_ALIAS",
      "SWISH_CERT",
      "database_id",
      "SESSION_SECRET",
    ]) {
      expect(text, name).toContain(name);
    }
    expect(problems).toHaveLength(7);
  });

  it("pass a filled-in production configuration with SESSION_SECRET set", () => {
    expect(deployProblems({ environment: "production", config: filledIn(), secrets: ["SESSION_SECRET"] })).toEqual([]);
  });

  it("refuse an origin that is not https, the development settings, and the test payee in production", () => {
    const config = filledIn();
    const problems = deployProblems({
      environment: "production",
      config: {
        ...config,
        vars: {
          ...config.vars,
          PUBLIC_ORIGIN: "http://byloppet.se",
          DEV_MODE: "true",
          GOOGLE_CLIENT_ID: "dev-client-id.apps.googleusercontent.com",
          ADMIN_EMAILS: " , ",
          SWISH_PAYEE_ALIAS: SWISH_TEST_PAYEE,
        },
      },
      secrets: ["SESSION_SECRET"],
    });
    expect(problems).toEqual([
      'DEV_MODE måste vara "false" under [env.production] (nu "true").',
      'PUBLIC_ORIGIN måste vara sajtens https-adress (nu "http://byloppet.se").',
      'GOOGLE_CLIENT_ID är fortfarande mallens ("dev-client-id.apps.googleusercontent.com"): ange OAuth-klientens id från Google.',
      "ADMIN_EMAILS är tom: ingen kan logga in som arrangör. Ange minst en Google-adress.",
      "SWISH_PAYEE_ALIAS är Swish testnummer 1234679304: ange föreningens eget Swish-nummer.",
    ]);
  });

  it("staging pays through MSS with Swish's test number, and still needs its own placeholders filled in", () => {
    expect(
      deployProblems({ environment: "staging", config: filledIn("staging"), secrets: ["SESSION_SECRET"] }),
    ).toEqual([]);
    const template = deployProblems({ environment: "staging", config: configFor("staging"), secrets: [] });
    expect(template.join("\n")).not.toContain("SWISH_PAYEE_ALIAS");
    expect(template.join("\n")).toContain("SWISH_CERT");
  });

  it("say whether the CAMPAIGN_CODES secret is set, without refusing either way", () => {
    const set = deployNotes({ environment: "production", secrets: ["SESSION_SECRET", "CAMPAIGN_CODES"] });
    expect(set).toEqual([expect.stringMatching(/^Hemligheten CAMPAIGN_CODES .* är satt\./)]);
    const missing = deployNotes({ environment: "staging", secrets: ["SESSION_SECRET"] });
    expect(missing).toEqual([
      expect.stringMatching(/^Hemligheten CAMPAIGN_CODES saknas: inga inbyggda kampanjkoder gäller/),
    ]);
    expect(missing[0]).toContain("npx wrangler secret put CAMPAIGN_CODES --env staging");
    expect(deployProblems({ environment: "production", config: filledIn(), secrets: ["SESSION_SECRET"] })).toEqual([]);
  });
});
