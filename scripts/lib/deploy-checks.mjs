/**
 * What `npm run deploy` refuses to ship (scripts/deploy.mjs): the template's placeholders and settings that only
 * make sense on a developer's machine. Pure: it reads a resolved wrangler configuration (wrangler's own reader,
 * `unstable_readConfig`, for one environment) and the names of the Worker's secrets, and answers the problems in
 * Swedish, one line each, so the organiser can fix them all in one go.
 */

/** Swish's merchant test number (MSS, reference/swish.md §6): right for staging, never for real payments. */
export const SWISH_TEST_PAYEE = "1234679304";

const TEMPLATE_HOSTS = /(^|\.)example\.(se|com|org|net)$/i;

function isPlaceholder(value) {
  return typeof value !== "string" || value.trim() === "" || /REPLACE/i.test(value) || /^0{8}-0{4}-/.test(value);
}

/**
 * @param {{ environment: string; config: { vars?: Record<string, unknown>; mtls_certificates?: { binding: string; certificate_id: string }[]; d1_databases?: { binding: string; database_id?: string }[] }; secrets: string[] }} input
 * @returns {string[]} the problems; empty when the configuration may be deployed
 */
export function deployProblems({ environment, config, secrets }) {
  const vars = config.vars ?? {};
  const text = (name) => (typeof vars[name] === "string" ? vars[name] : "");
  const problems = [];
  const where = `[env.${environment}]`;

  if (text("DEV_MODE") !== "false") {
    problems.push(`DEV_MODE måste vara "false" under ${where} (nu "${text("DEV_MODE")}").`);
  }

  let origin = null;
  try {
    origin = new URL(text("PUBLIC_ORIGIN"));
  } catch {
    // reported below
  }
  if (!origin || origin.protocol !== "https:") {
    problems.push(`PUBLIC_ORIGIN måste vara sajtens https-adress (nu "${text("PUBLIC_ORIGIN")}").`);
  } else if (TEMPLATE_HOSTS.test(origin.hostname)) {
    problems.push(`PUBLIC_ORIGIN är fortfarande mallens (${origin.origin}): ange sajtens riktiga adress.`);
  }

  const clientId = text("GOOGLE_CLIENT_ID");
  if (isPlaceholder(clientId) || clientId.startsWith("dev-") || !clientId.endsWith(".apps.googleusercontent.com")) {
    problems.push(`GOOGLE_CLIENT_ID är fortfarande mallens ("${clientId}"): ange OAuth-klientens id från Google.`);
  }

  const admins = text("ADMIN_EMAILS")
    .split(",")
    .map((email) => email.trim())
    .filter(Boolean);
  if (admins.length === 0) {
    problems.push("ADMIN_EMAILS är tom: ingen kan logga in som arrangör. Ange minst en Google-adress.");
  }

  const payee = text("SWISH_PAYEE_ALIAS");
  if (!/^123\d{7}$/.test(payee)) {
    problems.push(`SWISH_PAYEE_ALIAS ska vara föreningens Swish-nummer, 123 och sju siffror (nu "${payee}").`);
  } else if (environment === "production" && payee === SWISH_TEST_PAYEE) {
    problems.push(`SWISH_PAYEE_ALIAS är Swish testnummer ${SWISH_TEST_PAYEE}: ange föreningens eget Swish-nummer.`);
  }

  const cert = (config.mtls_certificates ?? []).find((c) => c.binding === "SWISH_CERT");
  if (!cert || isPlaceholder(cert.certificate_id)) {
    problems.push(
      "Swish-certifikatet (mTLS, SWISH_CERT) är fortfarande mallens: ladda upp det med `npx wrangler mtls-certificate upload` och ange dess id.",
    );
  }

  const db = (config.d1_databases ?? []).find((d) => d.binding === "DB");
  if (!db || isPlaceholder(db.database_id)) {
    problems.push(
      "D1-databasens database_id är fortfarande mallens: skapa den med `npx wrangler d1 create` och ange id:t.",
    );
  }

  if (!secrets.includes("SESSION_SECRET")) {
    problems.push(
      `Hemligheten SESSION_SECRET saknas: \`npx wrangler secret put SESSION_SECRET --env ${environment}\` (minst 32 slumpade tecken).`,
    );
  }
  return problems;
}

/**
 * What the organiser should know before deploying but that does not stop it: whether the CAMPAIGN_CODES secret (the
 * season's built-in campaign codes, README "Configuration per season") is set. Without it no built-in code works;
 * a season may mean that, so it is said, not refused. Only the secret's name can be listed, never its value.
 *
 * @param {{ environment: string; secrets: string[] }} input
 * @returns {string[]}
 */
export function deployNotes({ environment, secrets }) {
  return secrets.includes("CAMPAIGN_CODES")
    ? [
        "Hemligheten CAMPAIGN_CODES (de inbyggda kampanjkoderna) är satt. /admin/kampanjkoder visar vilka koder den ger.",
      ]
    : [
        "Hemligheten CAMPAIGN_CODES saknas: inga inbyggda kampanjkoder gäller (egna koder på /admin/kampanjkoder gör det). " +
          `Lägg in dem med \`npx wrangler secret put CAMPAIGN_CODES --env ${environment}\` (README, "Configuration per season").`,
      ];
}
