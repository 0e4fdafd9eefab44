/**
 * The organiser's guide (docs/organiser.md) promises that every command in it is exercised by a test, or is
 * listed at its end among the steps only a real Cloudflare account (or a Mac) can check. This test holds it to
 * that: it takes every command out of the guide's `sh` blocks and finds each either exercised (below, or in the
 * test file named for it, which must exist and run it) or in the final lists. It also runs the guide's own
 * `openssl` commands for the Swish certificate (with a throwaway CA in Swish's place), checks the campaign-word
 * example against the campaign rules, and asks the installed wrangler whether it knows every command and flag the
 * guide lists for a real account (its command tree, read in this process, nothing sent).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { experimental_getWranglerCommands } from "wrangler";
import { isCampaignRule, isValidCampaignCode, isValidMaxUses } from "../../src/shared/campaign";
import { stockholmDeadlineEnd } from "../../src/shared/stockholm";

const ROOT = path.join(import.meta.dirname, "..", "..");
const GUIDE = readFileSync(path.join(ROOT, "docs", "organiser.md"), "utf8");
const FINAL_HEADING = "## Steg som bara kan kontrolleras med ett riktigt Cloudflare-konto eller på en Mac";
const dir = mkdtempSync(path.join(tmpdir(), "organiser-guide-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fenced blocks of one language, each as its lines with the list indentation taken off. */
function blocks(markdown: string, language: string): string[][] {
  const found: string[][] = [];
  for (const [, indent = "", body = ""] of markdown.matchAll(
    new RegExp(`^( *)\`\`\`${language}\\n([\\s\\S]*?)^\\1\`\`\``, "gm"),
  )) {
    found.push(body.split("\n").map((line) => line.slice(indent.length)));
  }
  return found;
}

/** The commands of `sh` blocks: every line that is not empty or a comment. */
function commands(markdown: string): string[] {
  return blocks(markdown, "sh")
    .flat()
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** The part of the guide between two headings that start with these texts. */
function section(from: string, to: string): string {
  const start = GUIDE.indexOf(from);
  const end = GUIDE.indexOf(to, start);
  expect(start, from).toBeGreaterThanOrEqual(0);
  expect(end, to).toBeGreaterThan(start);
  return GUIDE.slice(start, end);
}

const [steps = "", final = ""] = GUIDE.split(FINAL_HEADING);
const [realAccountBlock = [], macBlock = []] = blocks(final, "sh").map((block) => block.filter(Boolean));

/**
 * Commands exercised elsewhere, and where: each named file must exist and contain the text that shows it runs
 * the command.
 */
const EXERCISED_ELSEWHERE: Record<string, { file: string; contains: string }> = {
  "npm run deploy -- --check": {
    file: "test/shared/deploy-command.test.ts",
    contains: 'deploy(["--check"], {}, true)',
  },
  "npm start": { file: "test/e2e/global-setup.ts", contains: "runs the real `npm start` path" },
  "npm run test:shared": { file: "test/shared/organiser-guide.test.ts", contains: "this very file" },
  "node scripts/import-results.mjs resultat-2024-56.csv --check": {
    file: "test/shared/import-command.test.ts",
    contains: '"resultat-2019-56.csv", good, "--check"',
  },
};

/** Commands this file runs itself, straight from the guide's text (filled in by the tests below). */
const RUN_HERE = new Set<string>();

describe("docs/organiser.md", () => {
  it("has its commands in sh blocks, and the final lists for a real account and for a Mac", () => {
    expect(commands(steps).length).toBeGreaterThanOrEqual(20);
    expect(realAccountBlock.length).toBeGreaterThanOrEqual(10);
    expect(macBlock).toEqual(["npm ci", "npm run test:shared", "npm start"]);
    // A command mentioned in running text must be one of the guide's commands too.
    const all = new Set(
      [...commands(steps), ...realAccountBlock, ...macBlock].flatMap((c) => [c, ...c.split("|").map((p) => p.trim())]),
    );
    const inline = [...GUIDE.matchAll(/`((?:npm|npx|node|openssl) [^`]*)`/g)].map((m) => m[1]!);
    expect(inline.filter((command) => !all.has(command))).toEqual([]);
    // The README points here.
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain("docs/organiser.md");
  });

  // A 4096-bit key takes a few seconds, more on a busy machine.
  it(
    "the Swish certificate: the guide's openssl commands make a key and a CSR, read the certificate and match it",
    {
      timeout: 60_000,
    },
    () => {
      const home = path.join(dir, "home");
      mkdirSync(home);
      const swish = section("## 7.", "## 8.");
      const [create = [], convert = [], inspect = []] = blocks(swish, "sh").map((b) => b.filter(Boolean));
      const shell = (lines: string[], cwd = home) => {
        const run = spawnSync("sh", ["-ec", lines.join("\n")], {
          cwd,
          encoding: "utf8",
          env: { ...process.env, HOME: home },
        });
        expect(run.status, `${lines.join("\n")}\n${run.stderr}`).toBe(0);
        for (const line of lines) RUN_HERE.add(line);
        return run.stdout;
      };

      // 1: key and certificate request, in ~/byloppet-hemligt.
      expect(create[0]).toBe("mkdir -p ~/byloppet-hemligt");
      shell(create);
      const folder = path.join(home, "byloppet-hemligt");
      const csr = spawnSync("openssl", ["req", "-in", "swish.csr", "-noout", "-verify", "-subject"], {
        cwd: folder,
        encoding: "utf8",
      });
      expect(`${csr.stdout}${csr.stderr}`).toMatch(/verify OK/i);
      expect(csr.stdout).toContain("CN = Byloppet");

      // 2: Swish's part, played by a throwaway CA: it signs the request and hands it out as PKCS#7.
      const ca = [
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=Test-CA",
        "openssl x509 -req -in swish.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 730 -out from-swish.pem",
        "openssl crl2pkcs7 -nocrl -certfile from-swish.pem -out swish.p7b",
      ];
      const signed = spawnSync("sh", ["-ec", ca.join("\n")], { cwd: folder, encoding: "utf8" });
      expect(signed.status, signed.stderr).toBe(0);
      shell(convert, folder);
      expect(readFileSync(path.join(folder, "swish.pem"), "utf8")).toContain("-----BEGIN CERTIFICATE-----");

      // 3: who it is for, when it ends, and the same public key in certificate and key.
      expect(inspect).toHaveLength(3);
      expect(shell([inspect[0]!], folder)).toMatch(/subject=.*CN = Byloppet\nnotAfter=/);
      const fromCertificate = shell([inspect[1]!], folder);
      const fromKey = shell([inspect[2]!], folder);
      expect(fromCertificate).toMatch(/[0-9a-f]{64}/);
      expect(fromCertificate).toBe(fromKey);
      // And a certificate for another key does not match: the check can fail.
      spawnSync("openssl", ["genrsa", "-out", "other.key", "2048"], { cwd: folder });
      const other = spawnSync("sh", ["-c", inspect[2]!.replace("swish.key", "other.key")], {
        cwd: folder,
        encoding: "utf8",
      });
      expect(other.stdout).not.toBe(fromCertificate);
    },
  );

  it("SESSION_SECRET: the guide's openssl part makes 64 random characters, more than the 32 the site needs", () => {
    const line = commands(section("## 5.", "## 6.")).find((c) => c.includes("SESSION_SECRET"))!;
    const generate = line.split("|")[0]!.trim();
    expect(generate).toBe("openssl rand -base64 48");
    const one = spawnSync("sh", ["-c", generate], { encoding: "utf8" }).stdout.trim();
    const two = spawnSync("sh", ["-c", generate], { encoding: "utf8" }).stdout.trim();
    expect(one).toMatch(/^[A-Za-z0-9+/]{64}$/);
    expect(one).not.toBe(two);
  });

  it("CAMPAIGN_CODES: the guide's example is a JSON of word → {rule, validUntil?, maxUses?} by the campaign rules", () => {
    const [example] = blocks(section("## 5.", "## 6."), "json");
    const codes = JSON.parse(example!.join("\n")) as Record<string, Record<string, unknown>>;
    expect(Object.keys(codes).length).toBeGreaterThanOrEqual(2);
    for (const [word, campaign] of Object.entries(codes)) {
      expect(isValidCampaignCode(word), word).toBe(true);
      expect(
        Object.keys(campaign).filter((k) => !["rule", "validUntil", "maxUses"].includes(k)),
        word,
      ).toEqual([]);
      expect(isCampaignRule(campaign.rule), word).toBe(true);
      if (campaign.validUntil !== undefined)
        expect(() => stockholmDeadlineEnd(String(campaign.validUntil))).not.toThrow();
      if (campaign.maxUses !== undefined) expect(isValidMaxUses(Number(campaign.maxUses)), word).toBe(true);
    }
  });

  it("every command is exercised (here, or in the test named for it) or listed at the end", () => {
    for (const [command, { file, contains }] of Object.entries(EXERCISED_ELSEWHERE)) {
      expect(readFileSync(path.join(ROOT, file), "utf8"), `${command} in ${file}`).toContain(contains);
    }
    // `npm run test:shared` runs this very file: it is in the shared project's folder.
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["test:shared"]).toBe("vitest run --project shared");
    // The Swish test above must have run (vitest runs a file's tests in order).
    expect(RUN_HERE.size).toBeGreaterThanOrEqual(8);

    const listed = new Set([...realAccountBlock, ...macBlock]);
    const unaccounted = commands(steps).filter(
      (command) => !(command in EXERCISED_ELSEWHERE) && !RUN_HERE.has(command) && !listed.has(command),
    );
    expect(unaccounted).toEqual([]);
    // And the final lists hold nothing the steps do not ask for.
    expect([...listed].filter((command) => !commands(steps).includes(command))).toEqual([]);
  });

  it("wrangler knows every command and flag the guide lists for a real account", () => {
    const wrangler = realAccountBlock
      .flatMap((line) => line.split("|").map((part) => part.trim()))
      .filter((part) => part.startsWith("npx wrangler "));
    expect(wrangler.length).toBeGreaterThanOrEqual(12);
    // The installed wrangler's own command tree, the one its command line is built from (each Node process that
    // asked `--help` loaded all of wrangler: 22 s of the suite for 14 look-ups).
    const { registry, globalFlags } = experimental_getWranglerCommands();
    const flagNames = (args: Record<string, unknown>) =>
      Object.entries(args).flatMap(([name, arg]) => {
        const alias = typeof arg === "object" && arg !== null && "alias" in arg ? [arg.alias].flat() : [];
        return [name, ...alias.filter((a) => typeof a === "string")].map((f) => `--${f}`);
      });
    const results = wrangler.map((command) => {
      const words = [...command.replace(/<.*$/, "").matchAll(/"[^"]*"|\S+/g)].map((m) => m[0]).slice(2);
      const firstFlag = words.findIndex((w) => w.startsWith("-"));
      const positional = firstFlag < 0 ? words : words.slice(0, firstFlag);
      const flags = words.filter((w) => w.startsWith("--"));
      // Down the tree by the command's words, as far as they name commands; what is left are its arguments.
      let node: (typeof registry)["subtree"] extends Map<string, infer N> ? N : never = registry;
      let depth = 0;
      while (depth < positional.length && node.subtree.has(positional[depth]!))
        node = node.subtree.get(positional[depth++]!)!;
      const definition = node.definition;
      if (definition?.type !== "command") return { command, missing: [`${positional.join(" ")} (no such command)`] };
      const places = definition.positionalArgs?.length ?? 0;
      const known = new Set([...flagNames(definition.args ?? {}), ...flagNames(globalFlags)]);
      const missing = [
        ...(positional.length - depth > places ? [`${positional.slice(depth).join(" ")} (no such command)`] : []),
        ...flags.filter((f) => !known.has(f)),
      ];
      return { command, missing };
    });
    expect(results.filter((r) => r.missing.length > 0)).toEqual([]);

    // The other real-account steps: the deploy script and the remote import exist as written.
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.deploy).toBe("node scripts/deploy.mjs");
    expect(readFileSync(path.join(ROOT, "scripts/import-results.mjs"), "utf8")).toContain("--remote");
  });
});
