/**
 * Issue 43: no e-mail address and no campaign word in the Worker's logs. The main flows (a family's login, runners,
 * a campaign preview and a free booking with its receipt, an admin's sign-in and campaign list, a campaign secret
 * that cannot be read) run with every console method captured; nothing they print holds an '@' address or a word.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { payidForLog } from "../../src/shared/campaign";
import { builtinCampaigns } from "../../src/worker/campaigns/builtin-campaigns";
import { get, loginAdmin, post } from "./helpers";
import { at, login, newClient, OPEN_AT, runner, uniqueEmail, update } from "./registration-helpers";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
let printed: string[] = [];

beforeEach(() => {
  printed = [];
  for (const method of METHODS) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

function expectNothingPersonal(words: string[]) {
  const all = printed.join("\n");
  expect(all).not.toMatch(/[^\s@"'<>]+@[^\s@"'<>]+\.[a-z]{2,}/i);
  for (const word of words) expect(all.toUpperCase()).not.toContain(word);
}

describe("the Worker's logs", () => {
  it("hold no address and no campaign word through a family's login, preview, free booking and receipt", async () => {
    const email = uniqueEmail("logg");
    const v = await login(email);
    const id = `kid-${crypto.randomUUID().slice(0, 8)}`;
    const runners = { [id]: runner({ age: 8, distance: "0.8", group: "Ingen" }) };
    expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
    const preview = await post(
      "/validate-kampanj",
      { kampanj: "FRIBILJETT", barn: 1, vuxna: 0 },
      { env: at(OPEN_AT), headers: newClient() },
    );
    expect(preview.status).toBe(200);
    const booked = await post(
      "/book-v2",
      { barn: 1, vuxna: 0, kampanj: "fribiljett" },
      { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
    );
    expect(booked.status).toBe(200);
    // The receipt is sent after the answer: wait for its line in email_log.
    await vi.waitFor(async () => {
      const row = await env.DB.prepare("SELECT status FROM email_log WHERE \"to\" = ? AND kind = 'receipt'")
        .bind(email)
        .first<{ status: string }>();
      expect(row?.status).toBe("sent");
    });
    expect(printed.length).toBeGreaterThan(0); // the outbox transport logs each mail: the capture works
    expectNothingPersonal(["FRIBILJETT"]);
  });

  it("hold no address through an admin's sign-in and campaign list, nor a word of an unreadable secret", async () => {
    const jar = await loginAdmin();
    expect((await get("/admin/api/kampanjkoder", { jar })).status).toBe(200);
    const read = builtinCampaigns({ DEV_MODE: "false", CAMPAIGN_CODES: '{"HEMLIGTORD9": {"rule": "halva"}}' });
    expect(read.errors.join(" ")).toContain("HEMLIGTORD9");
    expect(printed.join("\n")).toContain("CAMPAIGN_CODES kunde inte läsas");
    expectNothingPersonal(["HEMLIGTORD9"]);
  });

  it("name a free order's payment without its word", () => {
    expect(payidForLog("kampanj_FRIBILJETT_ab12")).toBe("kampanj_…_ab12");
    expect(payidForLog("4F2A9C")).toBe("4F2A9C");
  });
});
