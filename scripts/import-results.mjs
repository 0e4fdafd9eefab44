/**
 * The results import as a command: the same as the admin screen /admin/resultat, for an organiser at a terminal.
 * Reads one year's results file for one distance, or the course records file, checks every line with the shared
 * file rules (src/shared/results-file.ts, records-file.ts), and only when every line is right stores it with
 * `wrangler d1 execute`: the statements delete what the file replaces and insert its rows, so importing the same
 * year and distance again replaces it. A file with a bad line stops here with each bad line named; nothing is
 * sent to the database.
 *
 *   node scripts/import-results.mjs resultat-2019-56.csv                 # local database (npm start's)
 *   node scripts/import-results.mjs 2019-langa.csv --year 2019 --distance 5.6
 *   node scripts/import-results.mjs banrekord.csv --records
 *   node scripts/import-results.mjs resultat-2019-56.csv --check         # check only
 *   node scripts/import-results.mjs resultat-2019-56.csv --remote        # the deployed database (wrangler login)
 *
 * All or nothing: locally wrangler runs the file as one D1 batch (one transaction); remotely as one D1 import.
 * Should the connection break during a remote import, run the same command again: it replaces, so a second run
 * never doubles anything.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { bin, NODE, ROOT, run } from "./lib/proc.mjs";
import { recordsSql, resultsSql } from "./lib/import-sql.mjs";
import { settingsFromEnv } from "./lib/settings.mjs";

const USAGE = `Användning: node scripts/import-results.mjs <fil> [flaggor]

  --year ÅÅÅÅ        året (annars från filnamnet resultat-ÅÅÅÅ-DD.csv)
  --distance 5.6     distansen: 0.8, 1.6, 2.8 eller 5.6 (annars från filnamnet)
  --records          filen är banrekorden (Distans;Namn;År;Tid), även när filnamnet innehåller "rekord"
  --check            kontrollera bara filen, spara inget
  --local            npm starts lokala databas (förval; STATE_DIR, annars .wrangler/state)
  --remote           den driftsatta databasen (kräver wrangler login), med --env production om inget --env anges
  --env NAMN         wrangler-miljö för --remote
  --sql FIL          skriv också SQL-satserna till FIL`;

// The shared rules are TypeScript: Node 22.18+ strips the types. An older Node (the machines' Node 20) hands the
// same command to the project's own Node 22.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  if (NODE === process.execPath) fail("Node 22.18 eller senare behövs (kör npm install först).");
  await run(NODE, [process.argv[1], ...process.argv.slice(2)], { cwd: process.cwd() }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

register(new URL("./lib/ts-hooks.mjs", import.meta.url));
const { parseResults, parseResultsFileName } = await import("../src/shared/results-file.ts");
const { parseRecords } = await import("../src/shared/records-file.ts");
const { toDistance } = await import("../src/shared/distances.ts");
const { resultAge } = await import("../src/shared/child-safe.ts");
const { stockholmYear } = await import("../src/shared/stockholm.ts");

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      year: { type: "string" },
      distance: { type: "string" },
      records: { type: "boolean", default: false },
      check: { type: "boolean", default: false },
      local: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      env: { type: "string" },
      sql: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
} catch (err) {
  fail(`${err.message}\n\n${USAGE}`);
}
const { values: opts, positionals } = args;
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) fail(`Ange exakt en fil.\n\n${USAGE}`);
if (opts.local && opts.remote) fail("Välj --local eller --remote, inte båda.");

const file = path.resolve(positionals[0]);
let text;
try {
  text = readFileSync(file, "utf8");
} catch (err) {
  fail(`Kan inte läsa ${file}: ${err.message}`);
}

const name = path.basename(file);
const records = opts.records || (/rekord/i.test(name) && !opts.year && !opts.distance);
let sql;
let what;

if (records) {
  const { rows, errors } = parseRecords(text);
  report(errors);
  if (rows.length === 0) fail(`${name}: filen har inga rader att importera.`);
  sql = recordsSql(rows);
  what = `${rows.length} banrekord (ersätter alla sparade banrekord)`;
} else {
  const fromName = parseResultsFileName(name.toLowerCase());
  const year = opts.year !== undefined ? (/^\d{4}$/.test(opts.year) ? Number(opts.year) : NaN) : fromName?.year;
  const distance =
    opts.distance !== undefined ? toDistance(opts.distance.replace(/\s*k(m)?$/i, "")) : fromName?.distance;
  const thisYear = stockholmYear(Date.now());
  if (year === undefined) fail(`Ange --year (filnamnet ${name} är inte resultat-ÅÅÅÅ-DD.csv).`);
  if (!(year >= 1900 && year <= thisYear)) fail(`--year ska vara ett årtal mellan 1900 och ${thisYear}.`);
  if (!distance)
    fail(`Ange --distance 0.8, 1.6, 2.8 eller 5.6${fromName ? "" : ` (filnamnet ${name} säger inte vilken)`}.`);
  const { rows, errors } = parseResults(text);
  report(errors);
  if (rows.length === 0) fail(`${name}: filen har inga rader att importera.`);
  sql = resultsSql(year, distance, rows, resultAge);
  what = `${rows.length} resultat för ${year}, ${distance.replace(".", ",")} km (ersätter det som finns för det året och den distansen)`;
}

/** Every bad line, by number and reason; then stop before anything is stored. */
function report(errors) {
  if (errors.length === 0) return;
  for (const e of errors) console.error(`${name}: ${e.message}`);
  fail(`\n${errors.length} ${errors.length === 1 ? "felaktig rad" : "felaktiga rader"}. Inget har sparats.`);
}

if (opts.sql) writeFileSync(path.resolve(opts.sql), sql);
if (opts.check) {
  console.log(`${name}: alla rader är rätt – ${what}. Inget sparat (--check).`);
  process.exit(0);
}

const dir = mkdtempSync(path.join(tmpdir(), "loppet-import-"));
try {
  const sqlFile = path.join(dir, "import.sql");
  writeFileSync(sqlFile, sql);
  const target = opts.remote
    ? ["--remote", "--env", opts.env ?? "production"]
    : ["--local", "--persist-to", settingsFromEnv().stateDir];
  await run(NODE, [
    bin("wrangler"),
    "d1",
    "execute",
    "DB",
    ...target,
    "-c",
    path.join(ROOT, "wrangler.toml"),
    "--file",
    sqlFile,
  ]);
  console.log(`${name}: importerat ${what} i ${opts.remote ? "den driftsatta" : "den lokala"} databasen.`);
} catch (err) {
  fail(`Importen misslyckades: ${err.message}`, 2);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
