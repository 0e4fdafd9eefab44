/**
 * The CAMPAIGN_CODES secret checked as a command before it is stored (scripts/campaign-codes.mjs): the Worker's own
 * reader with the production rules, so a file that passes here is one the production Worker reads. Only the check
 * runs here (`--put` hands the file to `wrangler secret put`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.join(import.meta.dirname, "../../scripts/campaign-codes.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "campaign-codes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function command(text: string) {
  const file = path.join(dir, `koder-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, text);
  const run = spawnSync(process.execPath, [SCRIPT, file], { encoding: "utf8" });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe("scripts/campaign-codes.mjs", () => {
  it("lists a good file's codes with rule, end and cap (a free code capped by default)", () => {
    const { status, out } = command(
      JSON.stringify({
        sommar50: { rule: "flat50" },
        GRATISLOPP: { rule: "free" },
        TIDIGFAGLAR: { rule: "minus50", validUntil: "2025-10-01" },
      }),
    );
    expect(status).toBe(0);
    expect(out).toContain("SOMMAR50: flat50, hela säsongen, obegränsat antal användningar");
    expect(out).toContain("GRATISLOPP: free, hela säsongen, högst 20 användningar");
    expect(out).toContain("TIDIGFAGLAR: minus50, t.o.m. 2025-10-01, obegränsat antal användningar");
    expect(out).toContain("✔ 3 kampanjkoder är rätt skrivna.");
  });

  it("names every problem and stores nothing; a demo word is refused as in production", () => {
    const bad = command('{"GRATIS": {"rule": "gratis"}, "FRIBILJETT": {"rule": "free"}}');
    expect(bad.status).toBe(1);
    expect(bad.out).toContain('Kampanjkoden GRATIS: okänd regel "gratis"');
    expect(bad.out).toContain("Kampanjkoden FRIBILJETT är en demokod");
    expect(bad.out).toContain("Inget har lagts in.");
    const broken = command('{"GRATIS": {"rule": "free"},');
    expect(broken.status).toBe(1);
    expect(broken.out).toContain("CAMPAIGN_CODES är inte giltig JSON");
    expect(command("{}").out).toContain("innehåller inga koder");
  });

  it("refuses a word under 8 characters that makes an order free or takes off half or more (issue 43)", () => {
    const short = command('{"GRATIS": {"rule": "free"}, "TIDIG": {"rule": "minus50"}, "VAR50": {"rule": "flat50"}}');
    expect(short.status).toBe(1);
    for (const word of ["GRATIS", "TIDIG", "VAR50"]) {
      expect(short.out).toContain(`Kampanjkoden ${word} ger gratis eller minst halva priset i rabatt`);
    }
    expect(short.out).toContain("Inget har lagts in.");
    expect(command('{"GRATISLOPP": {"rule": "free"}}').status).toBe(0);
  });
});
