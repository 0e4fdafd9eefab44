/**
 * The season's built-in campaign codes (the CAMPAIGN_CODES secret) checked before they are stored: the file is read
 * with the Worker's own reader (src/worker/campaigns/builtin-campaigns.ts, production rules), every problem named;
 * a word shorter than 8 characters that makes an order free or takes off half or more is refused (issue 43); a good
 * file lists each code with its rule, end and cap, and with `--put` is stored as the Worker secret.
 *
 *   node scripts/campaign-codes.mjs kampanjkoder.json                  # check only
 *   node scripts/campaign-codes.mjs kampanjkoder.json --put            # check, then the production secret
 *   node scripts/campaign-codes.mjs kampanjkoder.json --put --env staging
 *
 * Keep the file outside the repository: its words are secrets.
 */
import { spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { register } from "node:module";
import { parseArgs } from "node:util";
import { bin, NODE, ROOT, run, toolEnv } from "./lib/proc.mjs";

const USAGE = `Användning: node scripts/campaign-codes.mjs <fil.json> [--put] [--env production|staging]

  Filen: ett JSON-objekt, kod → {"rule": "flat50" | "free" | "minus50" | "epassi", "validUntil"?: "ÅÅÅÅ-MM-DD",
  "maxUses"?: antal}, t.ex. {"SOMMAR50": {"rule": "flat50"}, "GRATIS": {"rule": "free", "maxUses": 30}}.
  --put     lägg in filen som hemligheten CAMPAIGN_CODES (kräver npx wrangler login)
  --env     wrangler-miljön för --put (förval production)`;

// The Worker's reader is TypeScript: Node 22.18+ strips the types. An older Node hands over to the project's own.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  if (NODE === process.execPath) fail("Node 22.18 eller senare behövs (kör npm install först).");
  await run(NODE, [process.argv[1], ...process.argv.slice(2)], { cwd: process.cwd() }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

register(new URL("./lib/ts-hooks.mjs", import.meta.url));
const { parseCampaignCodes, builtinMaxUses } = await import("../src/worker/campaigns/builtin-campaigns.ts");
const { shortCodeError } = await import("../src/shared/campaign.ts");

function fail(message) {
  console.error(message);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { put: { type: "boolean", default: false }, env: { type: "string", default: "production" } },
  });
} catch (err) {
  fail(`${err.message}\n\n${USAGE}`);
}
const [file] = args.positionals;
if (!file || args.positionals.length > 1) fail(USAGE);

let text;
try {
  text = readFileSync(file, "utf8");
} catch (err) {
  fail(`Kunde inte läsa ${file}: ${err.message}`);
}
const { campaigns, errors } = parseCampaignCodes(text, { devMode: false });
// A word that is free or takes off half or more must be long enough not to be guessed (issue 43; shared/campaign.ts).
const problems = [...errors, ...campaigns.map((c) => shortCodeError(c.code, c.rule)).filter((e) => e !== null)];
if (problems.length > 0) fail(`${file}:\n- ${problems.join("\n- ")}\nInget har lagts in.`);
if (campaigns.length === 0) fail(`${file} innehåller inga koder. Inget har lagts in.`);

for (const c of campaigns) {
  const cap = builtinMaxUses(c);
  const until = c.validUntil ? `t.o.m. ${c.validUntil}` : "hela säsongen";
  console.log(`  ${c.code}: ${c.rule}, ${until}, ${cap === null ? "obegränsat antal" : `högst ${cap}`} användningar`);
}
console.log(`✔ ${campaigns.length} kampanjkoder är rätt skrivna.`);
if (!args.values.put) process.exit(0);

// The file goes to wrangler on stdin, so the words never appear in a command line or the shell's history.
const put = spawn(
  NODE,
  [bin("wrangler"), "secret", "put", "CAMPAIGN_CODES", "-c", "wrangler.toml", "--env", args.values.env],
  {
    cwd: ROOT,
    env: toolEnv(),
    stdio: [openSync(file, "r"), "inherit", "inherit"],
  },
);
put.on("exit", (code) => {
  if (code !== 0) fail(`wrangler secret put slutade med kod ${code}.`);
  console.log(`✔ CAMPAIGN_CODES är inlagd (${args.values.env}). /admin/kampanjkoder visar koderna.`);
});
