/**
 * The results import as a command (scripts/import-results.mjs), run as the organiser runs it: a file with bad
 * lines stops before anything is sent to a database, each bad line named; a good file passes the check. Only
 * `--check` runs here (storing goes through wrangler; the statements it runs are tested in records-file.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.join(import.meta.dirname, "../../scripts/import-results.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "import-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function command(name: string, text: string, ...args: string[]) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  // STATE_DIR points nowhere real: a run that got as far as storing would fail loudly rather than touch a database.
  const run = spawnSync(process.execPath, [SCRIPT, file, ...args], {
    encoding: "utf8",
    env: { ...process.env, STATE_DIR: path.join(dir, "no-state") },
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const HEADER = "Placering;Namn;Resultat;Klass;Startnummer;Förening";

describe("scripts/import-results.mjs", () => {
  it("names every bad line and stops with nothing stored", () => {
    const { status, out } = command(
      "resultat-2019-56.csv",
      `${HEADER}\n1;Anna Ek;19:58.001;Dam;601;\n2;Bo Ek;19:5x;Herr;;\n3;;20:00.000;;;\n`,
    );
    expect(status).toBe(1);
    expect(out).toContain(
      'resultat-2019-56.csv: Rad 3: Resultat ska skrivas mm:ss.fff (till exempel 23:45.120), inte "19:5x".',
    );
    expect(out).toContain("resultat-2019-56.csv: Rad 4: Namn saknas.");
    expect(out).toContain("2 felaktiga rader. Inget har sparats.");
  });

  it("checks a good file, with year and distance from its name or from the flags", () => {
    const good = `${HEADER}\n1;Anna Ek;19:58.001;Dam;601;\n`;
    const named = command("resultat-2019-56.csv", good, "--check");
    expect(named.status).toBe(0);
    expect(named.out).toContain("alla rader är rätt – 1 resultat för 2019, 5,6 km");
    const flagged = command("langa-loppet.csv", good, "--check", "--year", "2018", "--distance", "2,8");
    expect(flagged.status).toBe(0);
    expect(flagged.out).toContain("1 resultat för 2018, 2,8 km");
  });

  it("asks for what it cannot tell, and checks the records file with its own rules", () => {
    expect(command("langa-loppet.csv", `${HEADER}\n`, "--check").out).toContain("Ange --year");
    const future = command("resultat-2999-56.csv", `${HEADER}\n1;A B;19:00.000;;;\n`, "--check");
    expect(future.status).toBe(1);
    expect(future.out).toMatch(/--year ska vara ett årtal mellan 1900 och \d{4}/);
    const records = command(
      "banrekord.csv",
      "Distans;Namn;År;Tid\n5.6;Per Ek;2019;18:21.050\n5,6;Dubbel;2020;18:00\n",
      "--check",
    );
    expect(records.status).toBe(1);
    expect(records.out).toContain("banrekord.csv: Rad 3: distansen 5.6 finns redan på rad 2.");
  });
});
