/**
 * `npm run deploy` (`-- --env staging` for the staging environment; production by default): checks everything
 * first and refuses with one Swedish line per problem, then builds, applies the D1 migrations and deploys.
 * `-- --check` stops after the checks; `-- --check --config <file>` checks another wrangler configuration (the
 * build always reads wrangler.toml, so only a check may).
 *
 * The checks (scripts/lib/deploy-checks.mjs) come in two rounds. The configuration's own (placeholders, the
 * site's address, e-mail, map tiles …) need nothing but the file, so they run before anyone has signed in to
 * Cloudflare; every problem is listed at once. The secrets can only be listed (by name; never by value) once
 * signed in (`npx wrangler login`): until then the command says so after the list, and stops.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { bin, forwardSignals, NODE, ROOT, run, toolEnv } from "./lib/proc.mjs";
import { configProblems, requiredSecrets, secretProblems } from "./lib/deploy-checks.mjs";
import { SEASON } from "../src/shared/season.ts";

const ENVIRONMENTS = ["production", "staging"];

function option(args, name) {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

const args = process.argv.slice(2);
const environment = option(args, "--env") ?? "production";
const configPath = path.resolve(option(args, "--config") ?? path.join(ROOT, "wrangler.toml"));
const relative = path.relative(process.cwd(), configPath);
const configName = relative && !relative.startsWith("..") ? relative : configPath;
const checkOnly = args.includes("--check");

/** The first lines of an error's message: what a person needs, never a stack trace. */
function firstLines(err, count = 1) {
  const lines = String(err?.message ?? err)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(0, count).join(" ");
}

/**
 * Why wrangler could not read the configuration, one line per reason: a TOML error with its line, or each of
 * wrangler's validation messages (its own English).
 */
function unreadable(err) {
  const where = err?.location?.line ? `rad ${err.location.line} (${String(err.location.lineText ?? "").trim()}): ` : "";
  const lines = String(err?.text ?? err?.message ?? err)
    .split("\n")
    .map((line) => line.trim().replace(/^- /, ""))
    .filter((line) => line && !/^Processing .* configuration:$/.test(line) && !/environment configuration$/.test(line));
  return lines.length > 0 ? [where + lines[0], ...lines.slice(1, 8)] : [firstLines(err)];
}

function stop(heading, lines, after = []) {
  console.error(`\n✘ ${heading}`);
  for (const line of lines) console.error(`  - ${line}`);
  for (const line of after) console.error(`\n${line}`);
  process.exit(1);
}

/**
 * The wrangler that reads the sign-in and the secrets. DEPLOY_CHECK_WRANGLER replaces it with a stand-in that
 * answers as a signed-in wrangler would (test/shared/deploy-command.test.ts), so that round is tested without
 * reaching Cloudflare.
 */
const READING_WRANGLER = process.env.DEPLOY_CHECK_WRANGLER || bin("wrangler");

/** A wrangler command whose output is ours to read (its own messages are not shown). */
function wrangler(...rest) {
  return new Promise((resolve) => {
    const child = spawn(NODE, [READING_WRANGLER, ...rest], {
      cwd: ROOT,
      env: toolEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (err) => resolve({ code: -1, stdout, stderr: err.message }));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Whether wrangler holds a Cloudflare sign-in (or an API token): read locally, nothing sent anywhere. */
async function signedIn() {
  const { code } = await wrangler("auth", "token", "--json");
  return code === 0;
}

/** The Worker's secrets by name; a Worker never deployed has none. */
async function secretNames() {
  const listed = await wrangler("secret", "list", "--format", "json", "-c", configPath, "--env", environment);
  if (listed.code === 0) return JSON.parse(listed.stdout).map((s) => s.name);
  if (/10007|does not exist|not found/i.test(listed.stderr)) return [];
  throw new Error(listed.stderr.replace(/\u001b\[[0-9;]*m/g, "").replace(/[✘▲]|\[ERROR\]/g, ""));
}

async function main() {
  if (!ENVIRONMENTS.includes(environment)) {
    stop("Publiceringen avbröts:", [`Okänd miljö "${environment}" (production eller staging).`]);
  }
  if (!checkOnly && configPath !== path.join(ROOT, "wrangler.toml")) {
    stop("Publiceringen avbröts:", ["--config går bara med --check: bygget läser alltid wrangler.toml."]);
  }

  let config;
  try {
    config = unstable_readConfig({ config: configPath, env: environment }, { hideWarnings: true });
  } catch (err) {
    stop(`${configName} kunde inte läsas:`, unreadable(err));
  }

  const problems = configProblems({ environment, config, season: SEASON });
  const secrets = requiredSecrets(config);
  if (!(await signedIn())) {
    const note =
      `Hemligheterna (${secrets.join(", ")}) kan kontrolleras först när du är inloggad: ` +
      "kör `npx wrangler login` och sedan `npm run deploy -- --check` igen.";
    if (problems.length > 0) stop(`${configName} är inte klar för ${environment}:`, problems, [note]);
    console.log(`\n✔ ${configName} ser färdig ut för ${environment}.`);
    console.error(`\n${note}`);
    process.exit(1);
  }

  try {
    problems.push(...secretProblems({ environment, config, secrets: await secretNames() }));
  } catch (err) {
    problems.push(`Kunde inte läsa Workerns hemligheter från Cloudflare: ${firstLines(err)}`);
  }
  if (problems.length > 0) stop(`Publiceringen avbröts (${environment}):`, problems);
  console.log(`\n✔ Konfigurationen och hemligheterna för ${environment} är klara.`);
  if (checkOnly) return;

  forwardSignals();
  console.log("\n▸ Bygger");
  await run("npm", ["run", "build"], { env: toolEnv({ NODE_ENV: "production", CLOUDFLARE_ENV: environment }) });
  console.log("\n▸ Migrerar D1 (remote)");
  await run(NODE, [
    bin("wrangler"),
    "d1",
    "migrations",
    "apply",
    "DB",
    "--remote",
    "-c",
    configPath,
    "--env",
    environment,
  ]);
  console.log("\n▸ Publicerar");
  // The Vite plugin's build points wrangler at the environment's built configuration (.wrangler/deploy/config.json
  // → dist/…/wrangler.json), so no --env here.
  await run(NODE, [bin("wrangler"), "deploy"]);
  console.log(`\n✔ Publicerat (${environment}).`);
}

main().catch((err) => stop(`Publiceringen avbröts (${environment}):`, [firstLines(err)]));
