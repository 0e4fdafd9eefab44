/**
 * Writes the development demo data as one SQL file (default .wrangler/seed.sql) for
 * `wrangler d1 execute DB --local --file <it>`. Deterministic: the same file on every run.
 *
 *   node scripts/seed.mjs [out.sql]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildDemoData, demoSql } from "./seed/demo-data.mjs";

const out = process.argv[2] ?? ".wrangler/seed.sql";
const data = buildDemoData();
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, demoSql(data));

const counts = Object.entries(data)
  .map(([key, rows]) => `${key} ${rows.length}`)
  .join(", ");
console.log(`Demodata skriven till ${out}: ${counts}`);
