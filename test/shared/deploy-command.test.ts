/**
 * `npm run deploy -- --check` as the organiser runs it (scripts/deploy.mjs). Nothing here reaches Cloudflare:
 * each run has a home directory of its own with no Cloudflare sign-in and no API token, so wrangler reads no
 * credentials and the command stops before listing secrets; the signed-in round runs against a stand-in wrangler
 * (test/shared/fixtures/signed-in-wrangler.mjs) that answers from its environment and refuses anything but
 * reading. On the template the command prints every problem of the configuration, one Swedish line each, and only
 * then says the secrets can be checked after `npx wrangler login`; signed in, it names every secret not set in the
 * same list; a broken or half-filled configuration never gives a stack trace.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { configProblems } from "../../scripts/lib/deploy-checks.mjs";
import { SEASON } from "../../src/shared/season";

const ROOT = path.join(import.meta.dirname, "..", "..");
const TEMPLATE = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
const STAND_IN = path.join(import.meta.dirname, "fixtures", "signed-in-wrangler.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "deploy-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOGIN_NOTE =
  "Hemligheterna (SESSION_SECRET, CAMPAIGN_CODES) kan kontrolleras först när du är inloggad: kör `npx wrangler login` och sedan `npm run deploy -- --check` igen.";

/** The season config's contact address is still the template's in the repository (src/shared/season.ts). */
const CONTACT =
  "Kontaktadressen contactEmail i src/shared/season.ts är fortfarande mallens (info@example.se): ange föreningens adress.";

let runs = 0;

/**
 * `npm run deploy -- <args>` from the repository, as a machine that has never signed in to Cloudflare; after the
 * first test the script is run with Node directly (the same command without npm's second or so).
 */
function deploy(args: string[], extraEnv: Record<string, string> = {}, viaNpm = false) {
  const home = path.join(dir, `home-${++runs}`);
  mkdirSync(home);
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    npm_config_update_notifier: "false",
    // Each run loads all of wrangler; compiled once for the file, the runs after it take a quarter less time.
    NODE_COMPILE_CACHE: path.join(dir, "compile-cache"),
    ...extraEnv,
  };
  for (const name of ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_API_KEY", "CLOUDFLARE_EMAIL", "CLOUDFLARE_ACCOUNT_ID"]) {
    delete env[name];
  }
  const [command, commandArgs] = viaNpm
    ? ["npm", ["run", "--silent", "deploy", "--", ...args]]
    : [process.execPath, [path.join(ROOT, "scripts", "deploy.mjs"), ...args]];
  const run = spawnSync(command, commandArgs, {
    cwd: ROOT,
    encoding: "utf8",
    env,
    timeout: 90_000,
  });
  const out = `${run.stdout}${run.stderr}`;
  // Never a stack trace, never wrangler's own warnings (e.g. to put a secret among the plain vars).
  expect(out).not.toMatch(/^\s+at /m);
  expect(out).not.toMatch(/WARNING|\[ERROR\]|Please add/);
  return { status: run.status, out, lines: out.split("\n").map((line) => line.trim()) };
}

/** A copy of wrangler.toml whose [env.production] section is edited by `edit`. */
function productionEdited(name: string, edit: (section: string) => string): string {
  const start = TEMPLATE.indexOf("\n[env.production]\n");
  const end = TEMPLATE.indexOf("\n[env.staging]\n");
  const text = TEMPLATE.slice(0, start) + edit(TEMPLATE.slice(start, end)) + TEMPLATE.slice(end);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Half of what the organiser fills in: the address, the route and Google; nothing else yet. */
const halfFilled = (section: string) =>
  section
    .replace(
      '# routes = [{ pattern = "lopp.example.se", custom_domain = true }]',
      'routes = [{ pattern = "byloppet.se", custom_domain = true }]',
    )
    .replace('PUBLIC_ORIGIN = "https://lopp.example.se"', 'PUBLIC_ORIGIN = "https://byloppet.se"')
    .replace('"REPLACE-ME.apps.googleusercontent.com"', '"123456789-abc.apps.googleusercontent.com"')
    .replace('ADMIN_EMAILS = ""', 'ADMIN_EMAILS = "arrangor@byloppet.se"');

/** Everything filled in. */
const filled = (section: string) =>
  halfFilled(section)
    .replace('SWISH_PAYEE_ALIAS = "1234679304"', 'SWISH_PAYEE_ALIAS = "1231181189"')
    .replaceAll("noreply@example.se", "noreply@byloppet.se")
    .replace('MAP_TILE_URL = ""', 'MAP_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"')
    .replace("REPLACE-WITH-ID-FROM-wrangler-d1-create", "9f3a1c2e-0000-4a3a-a5a0-7c8d2f2b8e11")
    .replace("REPLACE-WITH-ID-FROM-wrangler-mtls-certificate-upload", "c7b1ee4e-05b1-4a3a-a5a0-7c8d2f2b8e11");

function expectListed(lines: string[], problems: string[]) {
  const listed = lines.filter((line) => line.startsWith("- ")).map((line) => line.slice(2));
  expect(listed).toEqual(problems);
}

// Each run starts Node, npm and wrangler: seconds, not milliseconds.
describe("npm run deploy -- --check", { timeout: 90_000 }, () => {
  it("on the template, before any sign-in: every problem one line each, then that the secrets need a login", () => {
    const { status, lines } = deploy(["--check"], {}, true);
    expect(status).toBe(1);
    const template = unstable_readConfig(
      { config: path.join(ROOT, "wrangler.toml"), env: "production" },
      { hideWarnings: true },
    );
    const problems = configProblems({ environment: "production", config: template, season: SEASON });
    expect(problems.length).toBeGreaterThanOrEqual(10);
    expectListed(lines, problems);
    expect(lines).toContain("✘ wrangler.toml är inte klar för production:");
    // Only then the secrets, after the last problem.
    expect(lines.indexOf(LOGIN_NOTE)).toBeGreaterThan(lines.indexOf(`- ${problems.at(-1)}`));
  });

  it("on a half-filled configuration: every remaining problem at once", () => {
    const file = productionEdited("half.toml", halfFilled);
    const { status, lines } = deploy(["--check", "--config", file]);
    expect(status).toBe(1);
    expectListed(lines, [
      "SWISH_PAYEE_ALIAS är Swish testnummer 1234679304: ange föreningens eget Swish-nummer.",
      "Swish-certifikatet (mTLS, SWISH_CERT) är fortfarande mallens: ladda upp det med `npx wrangler mtls-certificate upload` och ange dess id.",
      "D1-databasens database_id är fortfarande mallens: skapa den med `npx wrangler d1 create` och ange id:t.",
      "EMAIL_FROM är fortfarande mallens (noreply@example.se): ange en adress på er egen domän.",
      "allowed_sender_addresses under [[env.production.send_email]] är fortfarande mallens (noreply@example.se): ange samma adress som EMAIL_FROM.",
      "Kartbilderna är inte inställda: MAP_TILE_URL är tom, så kartan på /banor saknar bakgrundskarta. Ange t.ex. https://tile.openstreetmap.org/{z}/{x}/{y}.png.",
      CONTACT,
    ]);
    expect(lines).toContain(LOGIN_NOTE);
  });

  it("signed in: the secrets not set are named in the same list as the configuration's problems", () => {
    const log = path.join(dir, "stand-in.log");
    const file = productionEdited("half-signed-in.toml", halfFilled);
    const { status, lines } = deploy(["--check", "--config", file], {
      DEPLOY_CHECK_WRANGLER: STAND_IN,
      STAND_IN_SECRETS: "SESSION_SECRET",
      STAND_IN_LOG: log,
    });
    expect(status).toBe(1);
    const listed = lines.filter((line) => line.startsWith("- "));
    expect(listed).toHaveLength(8);
    expect(listed.at(-1)).toBe(
      '- Hemligheten CAMPAIGN_CODES saknas: `npx wrangler secret put CAMPAIGN_CODES --env production` (kampanjorden som JSON, t.ex. {"VANLOPP50":{"rule":"flat50"}}; {} om ni inte har några).',
    );
    expect(lines).not.toContain(LOGIN_NOTE);
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([
      "auth token --json",
      `secret list --format json -c ${file} --env production`,
    ]);
  });

  it("on a filled-in configuration: only the season's contact address is left, signed in or not, nothing built", () => {
    const file = productionEdited("filled.toml", filled);
    const before = deploy(["--check", "--config", file]);
    expect(before.status).toBe(1);
    expectListed(before.lines, [CONTACT]);
    expect(before.lines).toContain(LOGIN_NOTE);

    const after = deploy(["--check", "--config", file], {
      DEPLOY_CHECK_WRANGLER: STAND_IN,
      STAND_IN_SECRETS: "SESSION_SECRET,CAMPAIGN_CODES",
    });
    expect(after.status).toBe(1);
    expectListed(after.lines, [CONTACT]);
    expect(after.lines).not.toContain(LOGIN_NOTE);
    expect(after.out).not.toContain("Bygger");
  });

  it("a configuration wrangler cannot read, an unknown environment, --config without --check: one line, no trace", () => {
    const broken = path.join(dir, "broken.toml");
    writeFileSync(broken, TEMPLATE.replace('DEV_MODE = "false"', "DEV_MODE = false ="));
    const unreadable = deploy(["--check", "--config", broken]);
    expect(unreadable.status).toBe(1);
    expect(unreadable.lines.some((line) => /^✘ .*broken\.toml kunde inte läsas:$/.test(line))).toBe(true);
    const line = TEMPLATE.split("\n").indexOf('DEV_MODE = "false"') + 1;
    expect(unreadable.lines.filter((l) => l.startsWith("- "))).toEqual([
      `- rad ${line} (DEV_MODE = false =): Invalid TOML document: each key-value declaration must be followed by an end-of-line`,
    ]);

    const unknown = deploy(["--check", "--env", "prod"]);
    expect(unknown.status).toBe(1);
    expect(unknown.lines).toContain('- Okänd miljö "prod" (production eller staging).');

    const notCheck = deploy(["--config", broken]);
    expect(notCheck.status).toBe(1);
    expect(notCheck.lines).toContain("- --config går bara med --check: bygget läser alltid wrangler.toml.");
  });
});
