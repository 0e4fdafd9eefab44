/**
 * No campaign code word reaches the browser. Every file the build put in dist/client (what Cloudflare serves as
 * static assets: the scripts, styles, pre-rendered pages, pictures) is searched, case-insensitively, for each demo
 * word of the development Worker and each word of the CAMPAIGN_CODES secret the test server was started with
 * (its build ran with that secret in its environment). Reads the build the global setup made (no second build).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { e2eBaseURL } from "./server-url";
import { DEMO_CAMPAIGNS } from "../../src/worker/dev/demo-campaigns";
import { E2E_CAMPAIGN_CODES } from "./campaign-secret";

const CLIENT = path.join(import.meta.dirname, "..", "..", "dist", "client");
const WORDS = [...DEMO_CAMPAIGNS.map((c) => c.code), ...Object.keys(E2E_CAMPAIGN_CODES)];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test("the built client holds no campaign code word, in any case", () => {
  const files = filesUnder(CLIENT);
  const scripts = files.filter((f) => f.endsWith(".js"));
  // A search of an empty or foreign folder would prove nothing: this is the SPA with its registration step.
  expect(scripts.length).toBeGreaterThan(5);
  expect(scripts.some((f) => readFileSync(f, "utf8").includes("Kampanjkod"))).toBe(true);

  const found: string[] = [];
  for (const file of files) {
    // latin1 keeps every byte, so a word is found in text and binary files alike.
    const text = readFileSync(file).toString("latin1").toLowerCase();
    for (const word of WORDS) {
      if (text.includes(word.toLowerCase())) found.push(`${path.relative(CLIENT, file)}: ${word}`);
    }
  }
  expect(found).toEqual([]);
});

test.skipIf(Boolean(process.env.E2E_BASE_URL))(
  "the server built alongside it has those words: the demo words and the secret's work at /validate-kampanj",
  async () => {
    const baseURL = e2eBaseURL();
    const validate = async (kampanj: string) => {
      const res = await fetch(`${baseURL}/validate-kampanj`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-loppet-client": "1" },
        body: JSON.stringify({ kampanj, barn: 0, vuxna: 1 }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { valid: boolean; price: number };
    };
    expect(await validate("hemlige2e7")).toEqual({ valid: true, price: 50 });
    expect(await validate(" GratisE2E9 ")).toEqual({ valid: true, price: 0 });
    expect(await validate("VANLOPP50")).toEqual({ valid: true, price: 50 });
  },
);
