/**
 * `npm run deploy` (`-- --env staging` for the staging environment; production by default): checks the
 * configuration first and refuses placeholders with one Swedish line each (scripts/lib/deploy-checks.mjs), then
 * builds, applies the D1 migrations and deploys. `-- --check` stops after the checks.
 *
 * Needs `npx wrangler login` (the secrets are listed from Cloudflare, and everything after the checks talks to it).
 */
import { unstable_readConfig } from "wrangler";
import { bin, forwardSignals, NODE, output, run, toolEnv } from "./lib/proc.mjs";
import { deployNotes, deployProblems } from "./lib/deploy-checks.mjs";

const args = process.argv.slice(2);
const envFlag = args.indexOf("--env");
const environment = envFlag >= 0 ? args[envFlag + 1] : "production";
const checkOnly = args.includes("--check");
const ENVIRONMENTS = ["production", "staging"];

function fail(lines) {
  console.error(`\n✘ Publiceringen avbröts (${environment}):`);
  for (const line of lines) console.error(`  - ${line}`);
  process.exit(1);
}

if (!ENVIRONMENTS.includes(environment)) fail([`Okänd miljö "${environment}" (production eller staging).`]);

forwardSignals();
const wranglerArgs = (...rest) => [bin("wrangler"), ...rest, "-c", "wrangler.toml", "--env", environment];

const config = unstable_readConfig({ config: "wrangler.toml", env: environment }, { hideWarnings: true });

let secrets;
try {
  const listed = JSON.parse(await output(NODE, wranglerArgs("secret", "list", "--format", "json")));
  secrets = listed.map((s) => s.name);
} catch (err) {
  fail([
    `Kunde inte läsa Workerns hemligheter från Cloudflare (är du inloggad? \`npx wrangler login\`): ${err.message.split("\n")[0]}`,
  ]);
}

const problems = deployProblems({ environment, config, secrets });
if (problems.length > 0) fail(problems);
console.log(`✔ Konfigurationen för ${environment} ser färdig ut.`);
for (const note of deployNotes({ environment, secrets })) console.log(`  ${note}`);
if (checkOnly) process.exit(0);

try {
  console.log("\n▸ Bygger");
  await run("npm", ["run", "build"], { env: toolEnv({ NODE_ENV: "production", CLOUDFLARE_ENV: environment }) });
  console.log("\n▸ Migrerar D1 (remote)");
  await run(NODE, wranglerArgs("d1", "migrations", "apply", "DB", "--remote"));
  console.log("\n▸ Publicerar");
  // The Vite plugin's build points wrangler at the environment's built configuration (.wrangler/deploy/config.json
  // → dist/…/wrangler.json), so no --env here.
  await run(NODE, [bin("wrangler"), "deploy"]);
  console.log(`\n✔ Publicerat (${environment}).`);
} catch (err) {
  fail([err.message]);
}
