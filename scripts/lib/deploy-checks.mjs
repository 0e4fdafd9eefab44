/**
 * What `npm run deploy` refuses to ship (scripts/deploy.mjs): the template's placeholders and settings that only
 * make sense on a developer's machine. Pure: the checks read a resolved wrangler configuration (wrangler's own
 * reader, `unstable_readConfig`, for one environment) and, once the organiser is signed in to Cloudflare, the
 * names of the Worker's secrets, and answer the problems in Swedish, one line each, so every remaining problem
 * can be fixed in one go.
 */
import { mapTileSource } from "../../src/shared/security-headers.ts";

/** Swish's merchant test number (MSS, reference/swish.md §6): right for staging, never for real payments. */
export const SWISH_TEST_PAYEE = "1234679304";

/** Every deployed environment needs these secrets (`npx wrangler secret put NAME --env …`). */
export const REQUIRED_SECRETS = ["SESSION_SECRET", "CAMPAIGN_CODES"];

const TEMPLATE_HOSTS = /(^|\.)example\.(se|com|org|net)$/i;
const EMAIL = /^[^\s@,;<>"]+@([^\s@,;<>"]+\.[a-z]{2,})$/i;

function isPlaceholder(value) {
  return typeof value !== "string" || value.trim() === "" || /REPLACE/i.test(value) || /^0{8}-0{4}-/.test(value);
}

/** The host a route names: a custom domain's pattern, or a zone route's pattern without its path. */
function routeHost(route) {
  const pattern = typeof route === "string" ? route : route?.pattern;
  if (typeof pattern !== "string") return null;
  return pattern
    .replace(/^https?:\/\//, "")
    .split("/")[0]
    .toLowerCase();
}

/**
 * The secrets this configuration needs: SESSION_SECRET and CAMPAIGN_CODES always, EMAIL_API_KEY when mail goes
 * through Resend.
 */
export function requiredSecrets(config) {
  const transport = config.vars?.EMAIL_TRANSPORT;
  return [...REQUIRED_SECRETS, ...(transport === "resend" ? ["EMAIL_API_KEY"] : [])];
}

/**
 * The problems visible in the configuration itself, before anyone signs in to Cloudflare. `season` is the season
 * config (src/shared/season.ts), whose contact address the pages show.
 * @param {{ environment: string; season?: { contactEmail: string }; config: { vars?: Record<string, unknown>; routes?: unknown[]; route?: unknown; mtls_certificates?: { binding: string; certificate_id: string }[]; d1_databases?: { binding: string; database_id?: string }[]; send_email?: { name: string; allowed_sender_addresses?: string[] }[] } }} input
 * @returns {string[]}
 */
export function configProblems({ environment, config, season }) {
  const vars = config.vars ?? {};
  const text = (name) => (typeof vars[name] === "string" ? vars[name].trim() : "");
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
  const host = origin?.protocol === "https:" && !TEMPLATE_HOSTS.test(origin.hostname) ? origin.hostname : null;
  if (!origin || origin.protocol !== "https:") {
    problems.push(`PUBLIC_ORIGIN måste vara sajtens https-adress (nu "${text("PUBLIC_ORIGIN")}").`);
  } else if (!host) {
    problems.push(`PUBLIC_ORIGIN är fortfarande mallens (${origin.origin}): ange sajtens riktiga adress.`);
  } else if (origin.origin !== text("PUBLIC_ORIGIN").replace(/\/$/, "")) {
    problems.push(`PUBLIC_ORIGIN ska vara bara adressen, utan sökväg (${origin.origin}).`);
  }

  // The site's own address: a custom-domain route to PUBLIC_ORIGIN's host (staging may use workers.dev instead).
  const routes = [...(config.routes ?? []), ...(config.route ? [config.route] : [])];
  const routeHosts = routes.map(routeHost).filter(Boolean);
  const onWorkersDev = host?.endsWith(".workers.dev") && environment !== "production";
  const wanted = host ?? "din-doman.se";
  const example = `routes = [{ pattern = "${wanted}", custom_domain = true }]`;
  if (routeHosts.some((h) => TEMPLATE_HOSTS.test(h))) {
    problems.push(`Routen under ${where} är fortfarande mallens (${routeHosts.join(", ")}): ange ${example}.`);
  } else if (routeHosts.length === 0 && !onWorkersDev) {
    problems.push(
      `Sajtens adress saknas: lägg till ${example} direkt under ${where} (domänen ska ligga på ditt Cloudflare-konto).`,
    );
  } else if (host && routeHosts.length > 0 && !routeHosts.includes(host)) {
    problems.push(`Routen under ${where} (${routeHosts.join(", ")}) pekar inte på PUBLIC_ORIGIN:s adress ${host}.`);
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
  for (const email of admins.filter((a) => !EMAIL.test(a))) {
    problems.push(`ADMIN_EMAILS: "${email}" är ingen e-postadress (skilj adresserna åt med kommatecken).`);
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

  problems.push(...emailProblems(config, text, where));
  problems.push(...mapTileProblems(text("MAP_TILE_URL")));
  const contact = season?.contactEmail ?? "";
  if (season && (!EMAIL.test(contact) || TEMPLATE_HOSTS.test(contact.split("@")[1]))) {
    problems.push(
      `Kontaktadressen contactEmail i src/shared/season.ts är fortfarande mallens (${contact}): ange föreningens adress.`,
    );
  }
  return problems;
}

function emailProblems(config, text, where) {
  const problems = [];
  const transport = text("EMAIL_TRANSPORT");
  if (transport !== "cloudflare" && transport !== "resend") {
    problems.push(`EMAIL_TRANSPORT ska vara "cloudflare" eller "resend" (nu "${transport}").`);
  }
  const from = text("EMAIL_FROM");
  const fromDomain = EMAIL.exec(from)?.[1];
  if (!fromDomain) {
    problems.push(`EMAIL_FROM ska vara avsändaradressen, t.ex. noreply@din-doman.se (nu "${from}").`);
  } else if (TEMPLATE_HOSTS.test(fromDomain)) {
    problems.push(`EMAIL_FROM är fortfarande mallens (${from}): ange en adress på er egen domän.`);
  }
  if (transport === "cloudflare") {
    const binding = (config.send_email ?? []).find((b) => b.name === "EMAIL");
    const allowed = binding?.allowed_sender_addresses ?? [];
    if (allowed.length === 0 || allowed.some((a) => TEMPLATE_HOSTS.test(a.split("@")[1] ?? ""))) {
      problems.push(
        `allowed_sender_addresses under [[${where.slice(1, -1)}.send_email]] är fortfarande mallens (${allowed.join(", ") || "tom"}): ange samma adress som EMAIL_FROM.`,
      );
    } else if (fromDomain && !TEMPLATE_HOSTS.test(fromDomain) && !allowed.includes(from)) {
      problems.push(`EMAIL_FROM (${from}) finns inte bland allowed_sender_addresses (${allowed.join(", ")}).`);
    }
  }
  return problems;
}

function mapTileProblems(template) {
  if (template === "") {
    return [
      "Kartbilderna är inte inställda: MAP_TILE_URL är tom, så kartan på /banor saknar bakgrundskarta. Ange t.ex. https://tile.openstreetmap.org/{z}/{x}/{y}.png.",
    ];
  }
  if (!mapTileSource(template) || !["{z}", "{x}", "{y}"].every((part) => template.includes(part))) {
    return [`MAP_TILE_URL ska vara en https-adress med {z}, {x} och {y} (nu "${template}").`];
  }
  return [];
}

/**
 * The secrets this configuration needs that the Worker lacks (names only: Cloudflare never shows a value).
 * @param {{ environment: string; config: { vars?: Record<string, unknown> }; secrets: string[] }} input
 * @returns {string[]}
 */
export function secretProblems({ environment, config, secrets }) {
  const hints = {
    SESSION_SECRET: "minst 32 slumpade tecken, t.ex. från `openssl rand -base64 48`",
    CAMPAIGN_CODES: 'kampanjorden som JSON, t.ex. {"VANLOPP50":{"rule":"flat50"}}; {} om ni inte har några',
    EMAIL_API_KEY: "Resends API-nyckel",
  };
  return requiredSecrets(config)
    .filter((name) => !secrets.includes(name))
    .map(
      (name) =>
        `Hemligheten ${name} saknas: \`npx wrangler secret put ${name} --env ${environment}\` (${hints[name]}).`,
    );
}
